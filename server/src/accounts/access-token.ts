import { createHmac, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../users/index.js';

/**
 * Access tokens: HS256 JWTs signed with AUTH_SECRET, 15 minutes by default. The role claim is
 * informative only; every check reads the user's current role from the database.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'hearth';
const AUDIENCE = 'hearth';
/** Verified tokens remembered (a household has a handful live; the oldest go first). */
const MAX_VERIFIED = 5000;

export interface AccessClaims {
  userId: string;
  role: Role;
  /** The sign-in session (refresh-token family) the token belongs to: revoking it ends the token. */
  sessionId: string;
}

/** A verified token: its claims and when it was issued (epoch seconds). */
export interface VerifiedAccess extends AccessClaims {
  issuedAt: number;
}

/** Everything that makes an access token: signing the same stamp again yields the same token. */
export interface AccessStamp {
  jti: string;
  issuedAt: number;
  ttlSeconds: number;
}

export class AccessTokens {
  private readonly key: Uint8Array;
  /** Imported once: jose would import raw key bytes into WebCrypto on every sign and verify. */
  private cryptoKey: Promise<webcrypto.CryptoKey> | undefined;
  /**
   * Tokens whose signature and claims were checked, with their expiry (epoch seconds): a signed-in
   * browser sends the same token on every call until it refreshes, and checking it again would
   * give the same answer until it expires. Only what this key signed gets in.
   */
  private readonly verified = new Map<string, { claims: VerifiedAccess; expiresAt: number }>();

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
    return this.signStamped(claims, AccessTokens.newStamp(ttlSeconds));
  }

  static newStamp(ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): AccessStamp {
    return { jti: crypto.randomUUID(), issuedAt: Math.floor(Date.now() / 1000), ttlSeconds };
  }

  /** HS256 is deterministic: the same claims and stamp give the same token (refresh grace). */
  async signStamped(claims: AccessClaims, stamp: AccessStamp): Promise<string> {
    return new SignJWT({ role: claims.role, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(stamp.issuedAt)
      .setJti(stamp.jti)
      .setExpirationTime(stamp.issuedAt + stamp.ttlSeconds)
      .sign(await this.hmacKey());
  }

  private hmacKey(): Promise<webcrypto.CryptoKey> {
    this.cryptoKey ??= webcrypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return this.cryptoKey;
  }

  /** A keyed digest (HMAC-SHA256, base64url) for secrets that are stored or derived server-side. */
  mac(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\0${value}`).digest('base64url');
  }

  /**
   * The claims of a valid token, or undefined for a forged, expired, malformed or alg:none one,
   * and for one without `exp`, `iat` or its session (`sid`): such a token would never end.
   */
  async verify(token: string): Promise<VerifiedAccess | undefined> {
    const nowSeconds = Math.floor(this.now() / 1000);
    const known = this.verified.get(token);
    if (known) {
      if (nowSeconds < known.expiresAt) return known.claims;
      this.verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, await this.hmacKey(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sid'],
        currentDate: new Date(nowSeconds * 1000),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return undefined;
      const claims = Object.freeze({
        userId: payload.sub,
        role: payload.role as Role,
        sessionId: payload.sid,
        issuedAt: payload.iat,
      });
      if (this.verified.size >= MAX_VERIFIED)
        this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, { claims, expiresAt: payload.exp });
      return claims;
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }
}
