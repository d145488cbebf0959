import { randomInt, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { AccessTokens } from './access-token.js';
import { cooldownMessage, MESSAGES } from './accounts.errors.js';
import type { CodePurpose } from './accounts.tables.js';
import { CODE_ATTEMPT_LIMIT, type CodesRepository } from './codes.repository.js';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = CODE_ATTEMPT_LIMIT;
export const CODE_RESEND_COOLDOWN_MS = 30 * 1000;
export const CODE_MAILS_PER_HOUR = 5;

export type CodeCheck = 'ok' | 'invalid' | 'burned' | 'none';

/**
 * Six-digit one-time codes (e-mail verification, sign-in, 2FA set-up, password reset): from a
 * CSPRNG, stored as an HMAC, single use, 10 minutes, burned by 5 wrong tries or by a newer code.
 */
export class OneTimeCodes {
  constructor(
    private readonly repository: CodesRepository,
    private readonly keys: AccessTokens,
  ) {}

  /** A fresh code, or 429 during the 30 s cooldown or past 5 codes of the kind in an hour. */
  async issue(userId: string, purpose: CodePurpose): Promise<string> {
    const now = Date.now();
    const last = await this.repository.latest(userId, purpose);
    const since = last ? now - Date.parse(last.created_at) : Number.POSITIVE_INFINITY;
    if (since < CODE_RESEND_COOLDOWN_MS) {
      const wait = Math.ceil((CODE_RESEND_COOLDOWN_MS - since) / 1000);
      throw new HttpError(429, cooldownMessage(wait), { retry_after: wait }, { 'retry-after': String(wait) });
    }
    if (
      (await this.repository.countSince(userId, purpose, nowIso(now - 60 * 60 * 1000))) >= CODE_MAILS_PER_HOUR
    ) {
      throw new HttpError(429, MESSAGES.tooManyCodes);
    }
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    const id = crypto.randomUUID();
    await this.repository.replace({
      id,
      user_id: userId,
      purpose,
      code_hash: this.digest(id, code),
      created_at: nowIso(now),
      expires_at: nowIso(now + CODE_TTL_MS),
    });
    return code;
  }

  /** Whether a code of this kind is waiting (a burned one still counts: a new one may be sent). */
  async pending(userId: string, purpose: CodePurpose): Promise<boolean> {
    const last = await this.repository.latest(userId, purpose);
    return !!last && !last.used_at && Date.parse(last.expires_at) > Date.now();
  }

  async check(userId: string, purpose: CodePurpose, code: unknown): Promise<CodeCheck> {
    const last = await this.repository.latest(userId, purpose);
    const now = Date.now();
    if (!last || last.used_at || last.burned_at || Date.parse(last.expires_at) <= now) return 'none';
    const given = typeof code === 'string' || typeof code === 'number' ? String(code).trim() : '';
    if (/^\d{6}$/.test(given) && equal(this.digest(last.id, given), last.code_hash)) {
      return (await this.repository.markUsed(last.id, nowIso(now))) ? 'ok' : 'none';
    }
    const attempts = await this.repository.addAttempt(last.id);
    if (attempts >= CODE_MAX_ATTEMPTS) {
      await this.repository.burn(last.id, nowIso(now));
      return 'burned';
    }
    return 'invalid';
  }

  async cancelAll(userId: string): Promise<void> {
    await this.repository.burnAll(userId, nowIso());
  }

  private digest(id: string, code: string) {
    return this.keys.mac(`code:${id}`, code);
  }
}

const equal = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
