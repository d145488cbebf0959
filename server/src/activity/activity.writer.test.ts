import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { LogCapture } from '../../test/app.js';
import { testDatabases, useTestStorage } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import { csvField } from './activity.csv.js';
import type { ActivityRecord } from './activity.log.js';
import { ActivityRepository, type ActivityRow, toEntry } from './activity.repository.js';
import { ActivityWriter } from './activity.writer.js';

const entry = (n: number): ActivityRecord => ({
  actor: { type: 'user', id: 'u1', label: 'Ada' },
  kind: 'device.command',
  result: 'ok',
  device_id: `d${n}`,
  detail: { n },
});

function fakeRepository() {
  const batches: ActivityRow[][] = [];
  let failing = false;
  return {
    batches,
    fail(on: boolean) {
      failing = on;
    },
    async append(rows: readonly ActivityRow[]) {
      if (failing)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      batches.push([...rows]);
    },
  };
}

describe('the activity writer', () => {
  it('writes what was recorded in one batch per flush, in order, with ids that sort by time', async () => {
    const repository = fakeRepository();
    const writer = new ActivityWriter({
      repository,
      log: pino({ level: 'silent' }),
      flushIntervalMs: 60_000,
    });
    for (let n = 0; n < 5; n++) writer.record(entry(n));
    expect(repository.batches).toEqual([]);
    await writer.flush();
    expect(repository.batches).toHaveLength(1);
    const rows = repository.batches[0]!;
    expect(rows.map((r) => r.device_id)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
    expect([...rows.map((r) => r.id)].sort()).toEqual(rows.map((r) => r.id));
    expect(JSON.parse(rows[0]!.detail)).toEqual({ n: 0 });
    await writer.close();
  });

  it('writes at once when flushRows are waiting, without waiting for the interval', async () => {
    const repository = fakeRepository();
    const writer = new ActivityWriter({
      repository,
      log: pino({ level: 'silent' }),
      flushIntervalMs: 60_000,
      flushRows: 10,
    });
    for (let n = 0; n < 10; n++) writer.record(entry(n));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(repository.batches.flat()).toHaveLength(10);
    await writer.close();
  });

  it('keeps entries while the database is away, drops the oldest beyond its bound with one warning, and writes the rest on close', async () => {
    const repository = fakeRepository();
    const logs = new LogCapture();
    const writer = new ActivityWriter({
      repository,
      log: pino(logs),
      flushIntervalMs: 60_000,
      flushRows: 1000,
      maxBuffered: 5,
    });
    repository.fail(true);
    for (let n = 0; n < 3; n++) writer.record(entry(n));
    await writer.flush();
    for (let n = 3; n < 9; n++) writer.record(entry(n));
    expect(writer.pending).toBe(5);
    expect(logs.lines.filter((l) => l.includes('buffer full'))).toHaveLength(1);
    repository.fail(false);
    await writer.close();
    expect(repository.batches.flat().map((r) => r.device_id)).toEqual(['d4', 'd5', 'd6', 'd7', 'd8']);
    expect(logs.text).toContain('"dropped":4');
  });

  it('does not slow the caller: 100 000 entries recorded in one task are written after it, in one batch', async () => {
    const repository = fakeRepository();
    const writer = new ActivityWriter({
      repository,
      log: pino({ level: 'silent' }),
      flushIntervalMs: 60_000,
      maxBuffered: 1_000_000,
    });
    // No write (nor the wait for one) on the caller's turn, however many it records: the 1000th
    // entry asks for a flush, which runs once the caller's task has ended, with all of them.
    for (let n = 0; n < 100_000; n++) writer.record(entry(n));
    expect(repository.batches).toEqual([]);
    expect(writer.pending).toBe(100_000);
    await waitFor(() => repository.batches.length > 0);
    expect(repository.batches).toHaveLength(1);
    expect(repository.batches[0]!.map((row) => row.device_id)).toEqual(
      Array.from({ length: 100_000 }, (_, n) => `d${n}`),
    );
    expect(writer.pending).toBe(0);
    await writer.close();
  });
});

describe("an entry's detail", () => {
  /** The detail as stored, after one flush of `detail` in an entry. */
  async function storedDetail(detail: Record<string, unknown>) {
    const repository = fakeRepository();
    const writer = new ActivityWriter({
      repository,
      log: pino({ level: 'silent' }),
      flushIntervalMs: 60_000,
    });
    writer.record({ ...entry(0), detail });
    await writer.close();
    const text = repository.batches[0]![0]!.detail;
    expect(text.length).toBeLessThanOrEqual(4000);
    return JSON.parse(text) as Record<string, unknown>;
  }

  it('keeps its fields when one of them is nested 10 000 deep (cut at a depth)', async () => {
    let deep: Record<string, unknown> = { on: true };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const detail = await storedDetail({ name: 'Lamp', state: deep });
    expect(detail.name).toBe('Lamp');
    expect(JSON.stringify(detail.state)).toMatch(/^\{"a":\{"a":\{"a":/);
  });

  it('keeps the real state beside a 5 000-character key (keys are cut)', async () => {
    const detail = await storedDetail({
      name: 'Lamp',
      state: { ['k'.repeat(5000)]: 1, on: true, brightness: 40 },
    });
    expect(detail.name).toBe('Lamp');
    const state = detail.state as Record<string, unknown>;
    expect(state).toMatchObject({ on: true, brightness: 40 });
    expect(Object.keys(state).every((key) => key.length <= 65)).toBe(true);
  });

  it('bounds texts, lists and the number of keys, keeping the first ones in order', async () => {
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const detail = await storedDetail({
      name: 'Lamp',
      reason: 'x'.repeat(100_000),
      state: many,
      list: Array.from({ length: 10_000 }, (_, i) => i),
    });
    expect(detail.name).toBe('Lamp');
    expect((detail.reason as string).length).toBeLessThan(600);
    const state = detail.state as Record<string, unknown>;
    expect(Object.keys(state).length).toBeLessThanOrEqual(51);
    expect(state).toMatchObject({ k0: 0, k1: 1, k2: 2 });
    expect((detail.list as unknown[]).length).toBeLessThanOrEqual(51);
  });

  it('is kept as it is when it is small', async () => {
    const detail = { name: 'Lamp', state: { on: true, color: { x: 0.3, y: 0.4 } }, via: 'stream' };
    expect(await storedDetail(detail)).toEqual(detail);
  });
});

describe('the activity writer, at a row the database refuses', () => {
  it('writes the rows before and after it, sets it aside once and keeps what the database could not take yet', async () => {
    // The existing in-memory fake, refusing one row as PostgreSQL refuses a value (a data
    // exception), then going away in the middle of the split.
    const written: string[] = [];
    let away = false;
    let wentAway = false;
    const repository = {
      async append(rows: readonly ActivityRow[]) {
        if (away) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        if (rows.some((row) => row.device_id === 'bad')) {
          if (rows.length <= 2 && !wentAway) {
            away = true;
            wentAway = true;
          }
          throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
        }
        written.push(...rows.map((row) => row.device_id!));
      },
    };
    const logs = new LogCapture();
    const writer = new ActivityWriter({ repository, log: pino(logs), flushIntervalMs: 60_000 });
    for (const id of ['d0', 'd1', 'd2', 'bad', 'd4', 'd5', 'd6', 'd7'])
      writer.record({ ...entry(0), device_id: id });
    await writer.flush();
    // d0–d1 were written, then the split met the database away: the rest waits.
    expect(written).toEqual(['d0', 'd1']);
    expect(writer.pending).toBe(6);
    away = false;
    await writer.flush();
    expect(written).toEqual(['d0', 'd1', 'd2', 'd4', 'd5', 'd6', 'd7']);
    expect(writer.pending).toBe(0);
    await writer.flush();
    expect(written).toHaveLength(7);
    expect(logs.lines.filter((line) => line.includes('set aside'))).toHaveLength(1);
    await writer.close();
  });
});

describe.each(testDatabases())('the activity writer on $name', ({ name, create }) => {
  const test = useTestStorage(create);
  let writer: ActivityWriter | undefined;
  let logs: LogCapture;
  afterEach(async () => {
    await writer?.close();
    await sql`delete from activity`.execute(test.storage.db);
  });

  const start = (failAfterMs?: number) => {
    logs = new LogCapture();
    writer = new ActivityWriter({
      repository: new ActivityRepository(test.storage.db),
      log: pino(logs),
      flushIntervalMs: 60_000,
      ...(failAfterMs === undefined ? {} : { failAfterMs }),
    });
    return writer;
  };
  const stored = async () =>
    (await sql<ActivityRow>`select * from activity order by id`.execute(test.storage.db)).rows.map(toEntry);

  it('drops U+0000 from what it stores, so every database takes the entry', async () => {
    const writer = start();
    writer.record({
      actor: { type: 'user', label: 'victim\u0000@example.com' },
      kind: 'sign_in',
      result: 'refused',
      ip: '192.0.2.1\u0000',
      client: 'Agent\u0000/1',
      device_id: '\u0000',
      detail: { email: 'victim\u0000@example.com' },
    });
    await writer.flush();
    const [row] = await stored();
    expect(row).toMatchObject({
      actor: { label: 'victim@example.com' },
      ip: '192.0.2.1',
      client: 'Agent/1',
      device_id: '',
      detail: { email: 'victim\u0000@example.com' },
    });
    expect(logs.text).not.toContain('failed');
  });

  it('writes the good rows of a batch with a bad one, sets the bad one aside and logs it once, without its details', async () => {
    // A rule of the database's refuses one row (as PostgreSQL refused a NUL byte before it was dropped).
    await (name === 'postgres'
      ? sql`alter table activity add constraint refuse_mallory check (actor_label <> 'Mallory')`
      : sql`create trigger refuse_mallory before insert on activity when new.actor_label = 'Mallory'
            begin select raise(abort, 'refused'); end`
    ).execute(test.storage.db);
    try {
      const writer = start(50);
      for (let n = 0; n < 9; n++) {
        writer.record(
          n === 4
            ? { ...entry(n), actor: { type: 'user', label: 'Mallory' }, detail: { secret: 'hunter2' } }
            : entry(n),
        );
      }
      await writer.flush();
      expect((await stored()).map((e) => e.device_id)).toEqual([
        'd0',
        'd1',
        'd2',
        'd3',
        'd5',
        'd6',
        'd7',
        'd8',
      ]);
      expect(writer.pending).toBe(0);
      const warnings = logs.lines.filter((line) => line.includes('set aside'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).not.toMatch(/Mallory|hunter2/);
      // Not tried again; the writer is not failing: the row was at fault.
      writer.record(entry(9));
      await writer.flush();
      expect((await stored()).map((e) => e.device_id)).toHaveLength(9);
      expect(logs.lines.filter((line) => line.includes('set aside'))).toHaveLength(1);
      expect(writer.healthy).toBe(true);
    } finally {
      await (name === 'postgres'
        ? sql`alter table activity drop constraint refuse_mallory`
        : sql`drop trigger refuse_mallory`
      ).execute(test.storage.db);
    }
  });

  it('keeps what it cannot write, is unhealthy once it has not written for failAfterMs, and writes it all when it can', async () => {
    const writer = start(300);
    await sql`alter table activity rename to activity_away`.execute(test.storage.db);
    try {
      writer.record(entry(1));
      await writer.flush();
      expect(writer.healthy).toBe(true);
      writer.record(entry(2));
      await writer.flush();
      await waitFor(() => !writer.healthy);
      expect(writer.pending).toBe(2);
    } finally {
      await sql`alter table activity_away rename to activity`.execute(test.storage.db);
    }
    writer.record(entry(3));
    await writer.flush();
    expect(writer.healthy).toBe(true);
    expect((await stored()).map((e) => e.device_id)).toEqual(['d1', 'd2', 'd3']);
    expect(logs.lines.filter((line) => line.includes('writing the activity log failed'))).toHaveLength(1);
    expect(logs.text).not.toContain('set aside');
  });
});

describe('CSV fields', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1+1', "'=1+1"],
    ['+31 6', "'+31 6"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(csvField(input)).toBe(output);
  });
});
