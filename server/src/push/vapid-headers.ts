import webpush from 'web-push';
import type { VapidKeys } from './push.repository.js';

/** How long a VAPID token is valid (RFC 8292 allows at most 24 h). */
const LIFETIME_S = 12 * 3600;
/** A token is signed again this long before it expires, so none is sent about to lapse. */
const RENEW_BEFORE_S = 3600;
/** Push service origins kept (a household's browsers use a handful). */
const MAX_ORIGINS = 100;

/**
 * The `Authorization: vapid t=…, k=…` header (RFC 8292) for each push service origin, signed once
 * and reused until an hour before it expires. web-push signs a new ES256 token for every message
 * otherwise: about a millisecond of the event loop each, in the bursts an incident sends.
 */
export class VapidHeaders {
  private readonly byOrigin = new Map<string, { authorization: string; signer: string; renewAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  authorization(endpoint: string, subject: string, keys: VapidKeys): string {
    const url = new URL(endpoint);
    const audience = `${url.protocol}//${url.host}`;
    const signer = `${keys.publicKey} ${subject}`;
    const nowS = Math.floor(this.now() / 1000);
    const kept = this.byOrigin.get(audience);
    if (kept && kept.signer === signer && nowS < kept.renewAt) return kept.authorization;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      subject,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
      nowS + LIFETIME_S,
    ) as { Authorization: string };
    if (!kept && this.byOrigin.size >= MAX_ORIGINS) this.byOrigin.clear();
    this.byOrigin.set(audience, {
      authorization: Authorization,
      signer,
      renewAt: nowS + LIFETIME_S - RENEW_BEFORE_S,
    });
    return Authorization;
  }
}
