import type { Logger } from 'pino';
import type { Storage } from './database.js';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * Waits until the database answers, retrying with back-off (250 ms doubling to 5 s) for up to
 * `timeoutMs`: a home box boots Hearth and PostgreSQL together. Errors that are not about
 * reaching the database fail at once.
 */
export async function waitForDatabase(storage: Storage, options: { timeoutMs: number; log: Logger }) {
  const started = Date.now();
  let delay = 250;
  let warned = false;
  for (;;) {
    try {
      await storage.ping();
      if (warned) options.log.info({ waitedMs: Date.now() - started }, 'database reachable');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const waited = Date.now() - started;
      if (waited >= options.timeoutMs) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Database not reachable within ${Math.round(options.timeoutMs / 1000)} s: ${reason}`);
      }
      if (!warned) {
        warned = true;
        options.log.warn(
          { err: error, timeoutMs: options.timeoutMs },
          'database not reachable yet; retrying (DATABASE_CONNECT_TIMEOUT)',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, options.timeoutMs - waited)));
      delay = Math.min(delay * 2, 5000);
    }
  }
}
