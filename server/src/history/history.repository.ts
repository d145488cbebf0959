import type { HistoryValue } from '@hearth/contracts';
import { CompiledQuery, type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import { yieldToEventLoop } from '../storage/batches.js';
import type { Database } from '../storage/schema.js';
import type { Bucket, Reading, SeriesType } from './history.buckets.js';
import type { Pause } from './history.pace.js';
import type { HistoryBucketTable } from './history.tables.js';

export type BucketTable = 'history_5m' | 'history_1h';
export type ProgressName = 'rollup_5m' | 'rollup_1h';

export interface Series {
  id: number;
  device_id: string;
  property: string;
  type: SeriesType;
}

/** A reading on its way to the database. */
export interface RawRow {
  series_id: number;
  t: number;
  v: HistoryValue | null;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 400;
/** Rows per statement when a query reads a range page by page (a few ms of the server's thread each). */
const PAGE = 1000;

/**
 * Readings per INSERT on SQLite, largest first: a batch goes as statements of these sizes, so
 * only three texts are ever prepared (the connection's statement cache keeps them).
 */
const RAW_SIZES = [100, 10, 1] as const;
const rawInsertSql = (rows: number) =>
  `insert into "history_raw" ("series_id", "t", "num", "bool", "text") values ${Array.from(
    { length: rows },
    () => '(?, ?, ?, ?, ?)',
  ).join(', ')}`;
const RAW_INSERT_SQL = new Map(RAW_SIZES.map((size) => [size, rawInsertSql(size)]));
/** PostgreSQL: a whole batch as five array parameters (one statement, whatever its size). */
const RAW_INSERT_PG =
  'insert into "history_raw" ("series_id", "t", "num", "bool", "text") ' +
  'select * from unnest($1::integer[], $2::bigint[], $3::double precision[], $4::integer[], $5::text[])';

const valueColumns = (v: HistoryValue | null) => ({
  num: typeof v === 'number' ? v : null,
  bool: typeof v === 'boolean' ? (v ? 1 : 0) : null,
  text: typeof v === 'string' ? v : null,
});

const readValue = (num: number | null, bool: number | null, text: string | null): HistoryValue | null =>
  num !== null ? Number(num) : bool !== null ? Boolean(bool) : text;

const toBucket = (row: Omit<HistoryBucketTable, 'series_id'>): Bucket => ({
  t: Number(row.t),
  min: row.min,
  max: row.max,
  mean: row.mean,
  last: readValue(row.last_num, row.last_bool, row.last_text),
  count: Number(row.count),
});

const BUCKET_COLUMNS = ['t', 'min', 'max', 'mean', 'last_num', 'last_bool', 'last_text', 'count'] as const;

/** SQL of the history domain (docs/history.md#storage); every query runs on SQLite and PostgreSQL. */
export class HistoryRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  async series(deviceId: string, property: string): Promise<Series | undefined> {
    const row = await this.db
      .selectFrom('history_series')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('property', '=', property)
      .executeTakeFirst();
    return row && { ...row, id: Number(row.id), type: row.type as SeriesType };
  }

  async allSeries(): Promise<Series[]> {
    const rows = await this.db.selectFrom('history_series').selectAll().orderBy('id').execute();
    return rows.map((row) => ({ ...row, id: Number(row.id), type: row.type as SeriesType }));
  }

  /** The series of these (device, property) pairs, created where missing. */
  async ensureSeries(wanted: readonly Omit<Series, 'id'>[]): Promise<Series[]> {
    const found = new Map<string, Series>();
    const key = (deviceId: string, property: string) => `${deviceId}\u0000${property}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const missing = wanted.filter((w) => !found.has(key(w.device_id, w.property)));
      if (missing.length === 0) break;
      try {
        await this.db.transaction().execute(async (trx) => {
          const deviceIds = [...new Set(missing.map((w) => w.device_id))];
          const existing = await trx
            .selectFrom('history_series')
            .selectAll()
            .where('device_id', 'in', deviceIds)
            .execute();
          for (const row of existing) {
            found.set(key(row.device_id, row.property), {
              ...row,
              id: Number(row.id),
              type: row.type as SeriesType,
            });
          }
          const toAdd = missing.filter((w) => !found.has(key(w.device_id, w.property)));
          if (toAdd.length === 0) return;
          const { max } = await trx
            .selectFrom('history_series')
            .select((eb) => eb.fn.max('id').as('max'))
            .executeTakeFirstOrThrow();
          let next = Number(max ?? 0) + 1;
          const rows = toAdd.map((w) => ({
            id: next++,
            device_id: w.device_id,
            property: w.property,
            type: w.type,
          }));
          // Many rows a statement: a new installation's first batch creates thousands of series.
          for (let i = 0; i < rows.length; i += 250) {
            await trx
              .insertInto('history_series')
              .values(rows.slice(i, i + 250))
              .execute();
          }
          for (const row of rows) found.set(key(row.device_id, row.property), row);
        });
      } catch (error) {
        // Another instance took the same id or pair at the same moment: read again.
        found.clear();
        if (attempt === 2) throw error;
      }
    }
    return wanted.map((w) => found.get(key(w.device_id, w.property))!);
  }

  /**
   * Stores readings in one transaction. The SQL is written out rather than built by Kysely:
   * compiling a multi-row INSERT cost more than running it (docs/history.md#recording).
   */
  async insertRaw(rows: readonly RawRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.postgres) {
      const columns: [number[], number[], (number | null)[], (number | null)[], (string | null)[]] = [
        [],
        [],
        [],
        [],
        [],
      ];
      for (const row of rows) {
        const v = row.v;
        columns[0].push(row.series_id);
        columns[1].push(row.t);
        columns[2].push(typeof v === 'number' ? v : null);
        columns[3].push(typeof v === 'boolean' ? (v ? 1 : 0) : null);
        columns[4].push(typeof v === 'string' ? v : null);
      }
      await this.db.executeQuery(CompiledQuery.raw(RAW_INSERT_PG, columns));
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      let start = 0;
      let statements = 0;
      for (const size of RAW_SIZES) {
        const text = RAW_INSERT_SQL.get(size)!;
        while (rows.length - start >= size) {
          const parameters: unknown[] = [];
          for (let i = start; i < start + size; i++) {
            const { series_id, t, v } = rows[i]!;
            const { num, bool, text: string } = valueColumns(v);
            parameters.push(series_id, t, num, bool, string);
          }
          await trx.executeQuery(CompiledQuery.raw(text, parameters));
          start += size;
          // better-sqlite3 runs each statement synchronously: a turn of the event loop now and then.
          if (++statements % 4 === 0) await yieldToEventLoop();
        }
      }
    });
  }

  /** Readings of a series in [from, to), oldest first, at most `limit`. */
  async raw(seriesId: number, from: number, to: number, limit?: number): Promise<Reading[]> {
    return this.readings(seriesId, from, to, { limit });
  }

  /**
   * Readings in [from, to), at most `limit` after the first `offset`; with the series' `type`,
   * only its value's column is read (a third less work for a page of a thousand).
   */
  private async readings(
    seriesId: number,
    from: number,
    to: number,
    {
      limit,
      offset = 0,
      type,
    }: { limit?: number | undefined; offset?: number; type?: SeriesType | undefined },
  ): Promise<Reading[]> {
    let query = this.db
      .selectFrom('history_raw')
      .where('series_id', '=', seriesId)
      .where('t', '>=', from)
      .where('t', '<', to)
      .orderBy('t');
    if (limit !== undefined) query = query.limit(limit);
    if (offset > 0) query = query.offset(offset);
    if (type === 'number') {
      const rows = await query.select(['t', 'num']).execute();
      return rows.map((row) => ({ t: Number(row.t), v: row.num === null ? null : Number(row.num) }));
    }
    if (type === 'boolean') {
      const rows = await query.select(['t', 'bool']).execute();
      return rows.map((row) => ({ t: Number(row.t), v: row.bool === null ? null : Boolean(row.bool) }));
    }
    const rows = await query.select(['t', 'num', 'bool', 'text']).execute();
    return rows.map((row) => ({ t: Number(row.t), v: readValue(row.num, row.bool, row.text) }));
  }

  /**
   * Readings of a series in [from, to), oldest first, `page` at a time (at most `most` in all),
   * with a turn of the event loop between pages: better-sqlite3 reads each page synchronously.
   * A page ends before the readings of its last millisecond, which start the next, so none is
   * read twice or skipped; each page starts later than the one before, so the pages end.
   */
  async *rawPages(
    seriesId: number,
    from: number,
    to: number,
    {
      page = PAGE,
      most = Number.POSITIVE_INFINITY,
      type,
      pause = yieldToEventLoop,
    }: { page?: number; most?: number; type?: SeriesType | undefined; pause?: Pause } = {},
  ): AsyncGenerator<Reading[]> {
    let cursor = from;
    let left = most;
    while (cursor < to && left > 0) {
      const rows = await this.readings(seriesId, cursor, to, { limit: Math.min(page, left), type });
      if (rows.length < page || rows.length >= left) {
        if (rows.length > 0) yield rows;
        return;
      }
      const last = rows[rows.length - 1]!.t;
      let keep = rows.length;
      while (keep > 0 && rows[keep - 1]!.t === last) keep--;
      if (keep > 0) {
        cursor = last;
        left -= keep;
        yield rows.slice(0, keep);
      } else {
        // A whole page in one millisecond: the rest of that millisecond by offset, then on after it.
        left -= rows.length;
        yield rows;
        for (let offset = rows.length; left > 0; offset += page) {
          await pause();
          const more = await this.readings(seriesId, last, last + 1, {
            limit: Math.min(page, left),
            offset,
            type,
          });
          left -= more.length;
          if (more.length > 0) yield more;
          if (more.length < page) break;
        }
        cursor = last + 1;
      }
      await pause();
    }
  }

  /** Readings of every series in [from, to), by series then time (for the roll-up). */
  async rawOfAll(from: number, to: number): Promise<(Reading & { series_id: number })[]> {
    const rows = await this.db
      .selectFrom('history_raw')
      .select(['series_id', 't', 'num', 'bool', 'text'])
      .where('t', '>=', from)
      .where('t', '<', to)
      .orderBy('series_id')
      .orderBy('t')
      .execute();
    return rows.map((row) => ({
      series_id: Number(row.series_id),
      t: Number(row.t),
      v: readValue(row.num, row.bool, row.text),
    }));
  }

  /** How many readings a series has in [from, to), counting at most `cap` + 1 (none is read out). */
  async countRaw(seriesId: number, from: number, to: number, cap: number): Promise<number> {
    const row = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('history_raw')
          .select('t')
          .where('series_id', '=', seriesId)
          .where('t', '>=', from)
          .where('t', '<', to)
          .limit(cap + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Buckets of a series in [from, to), oldest first, at most `limit`. */
  async buckets(
    table: BucketTable,
    seriesId: number,
    from: number,
    to: number,
    limit?: number,
  ): Promise<Bucket[]> {
    let query = this.db
      .selectFrom(table)
      .select(BUCKET_COLUMNS)
      .where('series_id', '=', seriesId)
      .where('t', '>=', from)
      .where('t', '<', to)
      .orderBy('t');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map(toBucket);
  }

  /** Buckets of a series in [from, to), `page` at a time, a turn of the event loop between pages. */
  async *bucketPages(
    table: BucketTable,
    seriesId: number,
    from: number,
    to: number,
    { page = PAGE, pause = yieldToEventLoop }: { page?: number; pause?: Pause } = {},
  ): AsyncGenerator<Bucket[]> {
    // A series has one bucket per start: each page starts after the last one's.
    for (let cursor = from; cursor < to; ) {
      const rows = await this.buckets(table, seriesId, cursor, to, page);
      if (rows.length > 0) yield rows;
      if (rows.length < page) return;
      cursor = rows[rows.length - 1]!.t + 1;
      await pause();
    }
  }

  /**
   * Buckets of a table merged into wider ones of `width` (a multiple of the table's) in SQL, so
   * a year of hourly buckets leaves the database as a thousand rows.
   */
  async bucketsMerged(
    table: BucketTable,
    seriesId: number,
    from: number,
    to: number,
    width: number,
  ): Promise<Bucket[]> {
    // An integer literal: integer division on both databases.
    const group = sql<number>`(t / ${sql.lit(width)}) * ${sql.lit(width)}`;
    const rows = await this.db
      .selectFrom(table)
      .select((eb) => [
        group.as('g'),
        eb.fn.min('min').as('min'),
        eb.fn.max('max').as('max'),
        eb.fn.sum<number | null>(sql`mean * count`).as('weighted'),
        eb.fn.sum<number>('count').as('count'),
        eb.fn.max('t').as('last_t'),
      ])
      .where('series_id', '=', seriesId)
      .where('t', '>=', from)
      .where('t', '<', to)
      .groupBy(group)
      .orderBy(group)
      .execute();
    const lasts = await this.valuesAt(
      table,
      seriesId,
      rows.map((row) => Number(row.last_t)),
    );
    return rows.map((row) => {
      const count = Number(row.count);
      return {
        t: Number(row.g),
        min: row.min === null ? null : Number(row.min),
        max: row.max === null ? null : Number(row.max),
        mean: row.weighted === null || count === 0 ? null : Number(row.weighted) / count,
        last: lasts.get(Number(row.last_t)) ?? null,
        count,
      };
    });
  }

  /**
   * Raw readings of a series in [from, to) as buckets of `width` (a multiple of 5 minutes),
   * computed in SQL: however many readings the range holds, one row per bucket leaves the
   * database (the part of a chart not rolled up yet).
   */
  async rawMerged(seriesId: number, from: number, to: number, width: number): Promise<Bucket[]> {
    const group = sql<number>`(t / ${sql.lit(width)}) * ${sql.lit(width)}`;
    const rows = await this.db
      .selectFrom('history_raw')
      .select((eb) => [
        group.as('g'),
        eb.fn.min('num').as('min'),
        eb.fn.max('num').as('max'),
        eb.fn.sum<number | null>('num').as('total'),
        eb.fn.count<number>('num').as('numbers'),
        sql<number>`count(num) + count(bool) + count(text)`.as('count'),
        sql<
          number | null
        >`max(case when num is not null or bool is not null or text is not null then t end)`.as('last_t'),
      ])
      .where('series_id', '=', seriesId)
      .where('t', '>=', from)
      .where('t', '<', to)
      .groupBy(group)
      .orderBy(group)
      .execute();
    const lasts = await this.valuesAt(
      'history_raw',
      seriesId,
      rows.map((row) => Number(row.last_t)),
    );
    return rows
      .filter((row) => Number(row.count) > 0)
      .map((row) => {
        const numbers = Number(row.numbers);
        return {
          t: Number(row.g),
          min: row.min === null ? null : Number(row.min),
          max: row.max === null ? null : Number(row.max),
          mean: row.total === null || numbers === 0 ? null : Number(row.total) / numbers,
          last: lasts.get(Number(row.last_t)) ?? null,
          count: Number(row.count),
        };
      });
  }

  /** The value at each of these times of a series (a bucket's `last`, or a reading's value). */
  private async valuesAt(
    table: 'history_raw' | BucketTable,
    seriesId: number,
    times: readonly number[],
  ): Promise<Map<number, HistoryValue | null>> {
    const values = new Map<number, HistoryValue | null>();
    for (let i = 0; i < times.length; i += CHUNK) {
      const slice = times.slice(i, i + CHUNK);
      if (table === 'history_raw') {
        const found = await this.db
          .selectFrom('history_raw')
          .select(['t', 'num', 'bool', 'text'])
          .where('series_id', '=', seriesId)
          .where('t', 'in', slice)
          .execute();
        for (const row of found) values.set(Number(row.t), readValue(row.num, row.bool, row.text));
      } else {
        const found = await this.db
          .selectFrom(table)
          .select(['t', 'last_num', 'last_bool', 'last_text'])
          .where('series_id', '=', seriesId)
          .where('t', 'in', slice)
          .execute();
        for (const row of found)
          values.set(Number(row.t), readValue(row.last_num, row.last_bool, row.last_text));
      }
    }
    return values;
  }

  async bucketsOfAll(
    table: BucketTable,
    from: number,
    to: number,
  ): Promise<(Bucket & { series_id: number })[]> {
    const rows = await this.db
      .selectFrom(table)
      .select(['series_id', ...BUCKET_COLUMNS])
      .where('t', '>=', from)
      .where('t', '<', to)
      .orderBy('series_id')
      .orderBy('t')
      .execute();
    return rows.map((row) => ({ ...toBucket(row), series_id: Number(row.series_id) }));
  }

  /** Stores buckets, replacing any already stored for the same series and start. */
  async upsertBuckets(
    table: BucketTable,
    buckets: readonly (Bucket & { series_id: number })[],
  ): Promise<void> {
    if (buckets.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < buckets.length; i += CHUNK) {
        await trx
          .insertInto(table)
          .values(
            buckets.slice(i, i + CHUNK).map((b) => ({
              series_id: b.series_id,
              t: b.t,
              min: b.min,
              max: b.max,
              mean: b.mean,
              last_num: typeof b.last === 'number' ? b.last : null,
              last_bool: typeof b.last === 'boolean' ? (b.last ? 1 : 0) : null,
              last_text: typeof b.last === 'string' ? b.last : null,
              count: b.count,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['series_id', 't']).doUpdateSet((eb) => ({
              min: eb.ref('excluded.min'),
              max: eb.ref('excluded.max'),
              mean: eb.ref('excluded.mean'),
              last_num: eb.ref('excluded.last_num'),
              last_bool: eb.ref('excluded.last_bool'),
              last_text: eb.ref('excluded.last_text'),
              count: eb.ref('excluded.count'),
            })),
          )
          .execute();
      }
    });
  }

  /** The oldest time in a table at or after `from` (all series), or undefined. */
  async oldest(
    table: 'history_raw' | BucketTable,
    from = Number.MIN_SAFE_INTEGER,
  ): Promise<number | undefined> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.min('t').as('t'))
      .where('t', '>=', from)
      .executeTakeFirst();
    return row?.t === null || row?.t === undefined ? undefined : Number(row.t);
  }

  /** The oldest time of one series in a table, or undefined. */
  async oldestOf(table: 'history_raw' | BucketTable, seriesId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom(table)
      .select('t')
      .where('series_id', '=', seriesId)
      .orderBy('t')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.t) : undefined;
  }

  /** Deletes rows older than `before`; returns how many. */
  async deleteBefore(table: 'history_raw' | BucketTable | 'history_gaps', before: number): Promise<number> {
    const result = await this.db.deleteFrom(table).where('t', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async progress(name: ProgressName): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('history_progress')
      .select('t')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Number(row.t) : undefined;
  }

  async setProgress(name: ProgressName, t: number, trx: Transaction<Database> | Kysely<Database> = this.db) {
    await trx
      .insertInto('history_progress')
      .values({ name, t })
      .onConflict((oc) => oc.column('name').doUpdateSet({ t }))
      .execute();
  }

  async addGaps(gaps: readonly { device_id: string; t: number }[]): Promise<void> {
    if (gaps.length === 0) return;
    await this.db
      .insertInto('history_gaps')
      .values([...gaps])
      .execute();
  }

  /** Gap times of a device (its own and Hearth's) in [from, to), oldest first. */
  async gaps(deviceId: string, from: number, to: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('history_gaps')
      .select('t')
      .where('device_id', 'in', [deviceId, ''])
      .where('t', '>=', from)
      .where('t', '<', to)
      .orderBy('t')
      .execute();
    return rows.map((row) => Number(row.t));
  }

  async exclusions(): Promise<{ device_id: string; property: string }[]> {
    return this.db.selectFrom('history_exclusions').selectAll().execute();
  }

  /** Replaces a device's exclusions: `device` for the whole device, and these properties. */
  async setExclusions(deviceId: string, device: boolean, properties: readonly string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('history_exclusions').where('device_id', '=', deviceId).execute();
      const rows = [...(device ? [''] : []), ...properties].map((property) => ({
        device_id: deviceId,
        property,
      }));
      if (rows.length > 0) await trx.insertInto('history_exclusions').values(rows).execute();
    });
  }
}
