import type { Logger } from 'pino';

/**
 * Logs each kind of problem once (keyed by the caller), so a device that keeps sending garbage
 * at 10 messages/s produces one line, not a flood.
 */
export class LogOnce {
  private readonly seen = new Set<string>();
  constructor(
    private readonly log: Logger,
    private readonly limit = 10_000,
  ) {}

  warn(key: string, details: Record<string, unknown>, message: string) {
    if (this.first(key)) this.log.warn(details, message);
  }

  /** The same for what is worth a line but is no problem (a config left to another source). */
  info(key: string, details: Record<string, unknown>, message: string) {
    if (this.first(key)) this.log.info(details, message);
  }

  private first(key: string): boolean {
    if (this.seen.has(key)) return false;
    if (this.seen.size >= this.limit) this.seen.clear();
    this.seen.add(key);
    return true;
  }
}
