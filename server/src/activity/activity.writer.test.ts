import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LogCapture } from '../../test/app.js';
import { csvField } from './activity.csv.js';
import type { ActivityRecord } from './activity.log.js';
import type { ActivityRow } from './activity.repository.js';
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
      if (failing) throw new Error('database away');
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

  it('does not slow the caller: recording 100 000 entries takes well under a second', () => {
    const writer = new ActivityWriter({
      repository: fakeRepository(),
      log: pino({ level: 'silent' }),
      flushIntervalMs: 60_000,
      flushRows: 1_000_000,
      maxBuffered: 1_000_000,
    });
    const start = performance.now();
    for (let n = 0; n < 100_000; n++) writer.record(entry(n));
    expect(performance.now() - start).toBeLessThan(1000);
    void writer.close();
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
