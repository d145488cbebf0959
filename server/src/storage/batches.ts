import { isDatabaseUnavailable } from './unavailable.js';

/**
 * Large writes go in chunks with a turn of the event loop between them: better-sqlite3 runs each
 * statement synchronously, so one long batch would hold back every device-stream message behind it.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** Text as both databases store it: PostgreSQL refuses U+0000 in text, so it is dropped. */
export const storableText = (text: string): string =>
  text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The code of an error that says a writer of Hearth's own (the history worker) is not there now. */
export const WRITER_AWAY = 'HEARTH_WRITER_AWAY';

/**
 * Whether an error means the database cannot write now, whatever the rows (away, full, read-only,
 * out of resources, shutting down, a deadlock): the batch waits and is written later, unchanged.
 */
export function cannotWriteNow(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = codeOf(error) ?? '';
  if (code === WRITER_AWAY) return true;
  // PostgreSQL: insufficient resources (disk full), operator intervention, system error, a
  // read-only transaction (a standby), serialisation failure and deadlock.
  if (/^(53|57|58)[0-9A-Z]{3}$/.test(code) || ['25006', '40001', '40P01'].includes(code)) return true;
  return /^SQLITE_(FULL|READONLY|NOMEM|INTERRUPT)/.test(code);
}

/**
 * Whether an error is about a row's own data: PostgreSQL's data exceptions (a NUL byte, a value
 * out of range), integrity constraints and limits (an index entry too large); SQLite's
 * constraints, over-long values and mismatched types.
 */
export function rowAtFault(error: unknown): boolean {
  const code = codeOf(error) ?? '';
  return (
    /^(22|23)[0-9A-Z]{3}$/.test(code) || code === '54000' || /^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH)/.test(code)
  );
}

export interface SplitOutcome<T> {
  /** How many rows were written. */
  written: number;
  /** Rows the database refused for their own sake: set aside, never tried again. */
  setAside: T[];
  /** Rows to write later, in order: the database cannot write now, or takes no row at all. */
  retry: T[];
  /** The first error met, if any. */
  error?: unknown;
}

/** The most statements one batch's split may cost; what it has not reached waits for the next. */
const SPLIT_STATEMENTS = 48;

/**
 * Writes `rows` with `write` (one transaction a call). When that fails for a reason other than
 * the database being unable to write now (`cannotWriteNow`: the rest is left to retry), the batch
 * is written in halves, down to single rows, so that a bad row never holds back the others. A row
 * that still fails on its own is set aside when other rows were written or its error is about its
 * own data (`rowAtFault`; another error: once it has been tried again after the others, in case
 * the table came back meanwhile); otherwise (a table that takes no row: gone, no permission) it
 * is left to retry with the rest. A split costs at most SPLIT_STATEMENTS statements: a broken
 * table costs a few dozen a batch, not one per row, and what the split has not reached is left
 * to retry.
 */
export async function writeSplitting<T>(
  rows: readonly T[],
  write: (rows: readonly T[]) => Promise<void>,
): Promise<SplitOutcome<T>> {
  let written = 0;
  let statements = 0;
  let error: unknown;
  let stopped = false;
  const failed: { index: number; error: unknown }[] = [];
  const retry: number[] = [];
  const attempt = async (start: number, end: number): Promise<void> => {
    if (stopped || statements >= SPLIT_STATEMENTS) {
      for (let i = start; i < end; i++) retry.push(i);
      return;
    }
    statements++;
    try {
      await write(start === 0 && end === rows.length ? rows : rows.slice(start, end));
      written += end - start;
    } catch (failure) {
      error ??= failure;
      if (cannotWriteNow(failure)) {
        stopped = true;
        for (let i = start; i < end; i++) retry.push(i);
      } else if (end - start === 1) {
        failed.push({ index: start, error: failure });
      } else {
        const middle = start + Math.ceil((end - start) / 2);
        await attempt(start, middle);
        await attempt(middle, end);
      }
    }
  };
  if (rows.length > 0) await attempt(0, rows.length);
  // Rows were written after a row failed for a reason that may have been the table's (it may have
  // come back meanwhile): such a row is tried once more before it is set aside.
  const doubtful = written > 0 ? failed.filter((leaf) => !rowAtFault(leaf.error)) : [];
  if (doubtful.length > 0) {
    failed.splice(0, failed.length, ...failed.filter((leaf) => rowAtFault(leaf.error)));
    for (const { index } of doubtful) await attempt(index, index + 1);
  }
  const setAside: T[] = [];
  for (const { index, error: failure } of failed) {
    if (written > 0 || rowAtFault(failure)) setAside.push(rows[index]!);
    else retry.push(index);
  }
  return {
    written,
    setAside,
    retry: retry.sort((a, b) => a - b).map((index) => rows[index]!),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * A writer's health for /healthz (docs/api.md#health): failing once its writes have failed for
 * `failAfterMs` with none succeeding since. A write that only sets aside rows at fault says
 * nothing about the writer.
 */
export class WriterHealth {
  private failingSince: number | undefined;

  constructor(
    private readonly failAfterMs = 60_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Rows were written. */
  wrote(): void {
    this.failingSince = undefined;
  }

  /** A write failed: nothing was written. */
  failed(): void {
    this.failingSince ??= this.now();
  }

  /** Notes a write's outcome: rows written, or rows left to retry with none written. */
  noteOutcome(outcome: SplitOutcome<unknown>): void {
    if (outcome.written > 0) this.wrote();
    else if (outcome.retry.length > 0) this.failed();
  }

  /** Since when writes fail (epoch ms), if they do. */
  get since(): number | undefined {
    return this.failingSince;
  }

  get healthy(): boolean {
    return this.failingSince === undefined || this.now() - this.failingSince < this.failAfterMs;
  }
}
