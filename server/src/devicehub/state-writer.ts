import type { Logger } from 'pino';
import type { DevicesRepository, StateEntry } from './devicehub.repository.js';
import type { WriterLease } from './writer-lease.js';

/**
 * Keeps the registry's last state without a write per message: updates are coalesced per
 * device and flushed together, in one transaction, every `intervalMs`. With a lease (several
 * instances on PostgreSQL), only the instance holding it writes; the others drop what they mark
 * (the holder hears the same bus).
 */
export class StateWriter {
  private dirty = new Map<string, StateEntry>();
  private flushing: Promise<void> | undefined;
  /** Since when flushes fail (one warning per outage, not one a second). */
  private failingSince: number | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repository: DevicesRepository,
    private readonly log: Logger,
    intervalMs = 1000,
    private readonly lease?: WriterLease,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  mark(entry: StateEntry) {
    this.dirty.set(entry.id, entry);
  }

  forget(id: string) {
    this.dirty.delete(id);
  }

  /** Writes what is pending; a flush already running is awaited, not doubled. */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.lease && !this.lease.isHolder()) {
      this.dirty.clear();
      return;
    }
    if (this.dirty.size === 0) return;
    const batch = [...this.dirty.values()];
    this.dirty = new Map();
    this.flushing = this.repository
      .saveStates(batch)
      .then(() => {
        if (this.failingSince === undefined) return;
        this.log.info({ failedMs: Date.now() - this.failingSince }, 'device state flush works again');
        this.failingSince = undefined;
      })
      .catch((error) => {
        if (this.failingSince === undefined) {
          this.failingSince = Date.now();
          this.log.warn(
            { err: error, devices: batch.length },
            'device state flush failed; retrying every second',
          );
        }
        for (const entry of batch) if (!this.dirty.has(entry.id)) this.dirty.set(entry.id, entry);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  async close() {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }
}
