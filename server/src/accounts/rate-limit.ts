import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from './accounts.errors.js';

const WINDOW_MS = 60_000;

/**
 * AUTH_RATE_LIMIT: unauthenticated auth calls per client IP per minute, shared by all of them
 * (a fixed one-minute window). request.ip honours TRUST_PROXY. Kept per instance: it slows
 * guessing across accounts, while the per-address lockout in the database is what counts.
 */
export function authRateLimiter(limit: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweepAt = Date.now() + WINDOW_MS;

  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (limit <= 0) return;
    const now = Date.now();
    if (now >= sweepAt) {
      for (const [ip, window] of windows) if (window.resetAt <= now) windows.delete(ip);
      sweepAt = now + WINDOW_MS;
    }
    let window = windows.get(request.ip);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_MS };
      windows.set(request.ip, window);
    }
    window.count++;
    if (window.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      return reply
        .code(429)
        .header('retry-after', String(retryAfter))
        .send({ error: MESSAGES.tooManyRequests });
    }
  };
}
