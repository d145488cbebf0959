import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../storage/schema.js';

/** Which instance writes device state: the one holding the lease. */
export interface WriterLease {
  isHolder(): boolean;
  /** Called with true when this instance takes the lease over, false when it loses it. */
  onChange(listener: (holder: boolean) => void): void;
  start(): void;
  /** Gives the lease up (another instance takes it over within a poll). */
  stop(): Promise<void>;
}

/** One instance on SQLite: it always writes. */
export const soleWriter = (): WriterLease => ({
  isHolder: () => true,
  onChange: () => {},
  start: () => {},
  stop: async () => {},
});

/**
 * A PostgreSQL session-level advisory lock, held on one pooled connection kept for as long as this
 * instance runs: the holder writes device state, the others poll every `pollMs` to take over. A
 * stopped instance unlocks; a killed one's session ends with its connection, which frees the lock
 * too. The key includes the schema, so databases (or test schemas) do not share one writer.
 */
export class AdvisoryWriterLease implements WriterLease {
  private holder = false;
  private stopped = false;
  private failing = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly listeners: ((holder: boolean) => void)[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
    private readonly pollMs = 1000,
  ) {}

  isHolder() {
    return this.holder;
  }

  onChange(listener: (holder: boolean) => void) {
    this.listeners.push(listener);
  }

  start() {
    this.running ??= this.run();
  }

  async stop() {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private set(holder: boolean) {
    if (holder === this.holder) return;
    this.holder = holder;
    this.log.info(
      holder
        ? 'device state writer: this instance writes device state'
        : 'device state writer: this instance no longer writes device state',
    );
    for (const listener of this.listeners) listener(holder);
  }

  private pause() {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.pollMs);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async run() {
    while (!this.stopped) {
      try {
        await this.db.connection().execute(async (connection) => {
          const key = sql`hashtext(current_schema() || '/hearth/devicehub/state-writer')`;
          if (this.failing) this.log.info('device state writer lease connected again');
          this.failing = false;
          while (!this.stopped) {
            if (!this.holder) {
              const { rows } = await sql<{
                locked: boolean;
              }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection);
              if (rows[0]?.locked) this.set(true);
            } else {
              // Still connected (a lost session has lost the lock with it).
              await sql`select 1`.execute(connection);
            }
            await this.pause();
          }
          if (this.holder) await sql`select pg_advisory_unlock(${key})`.execute(connection);
        });
      } catch (error) {
        this.set(false);
        // One line per outage, not one a second.
        if (!this.failing)
          this.log.warn({ err: error }, 'device state writer lease lost its connection; retrying');
        this.failing = true;
        if (!this.stopped) await this.pause();
      }
    }
    this.set(false);
  }
}
