import { testCapability } from '@hearth/contracts/testing';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryRecorder, type RecorderOptions } from './history.recorder.js';
import type { HistoryRepository, RawRow, Series } from './history.repository.js';
import { testPlug } from './history-test-kit.js';

const plug = testPlug({
  label: testCapability('label', 'text'),
  color: testCapability('color', 'composite', {
    features: [testCapability('x', 'numeric'), testCapability('y', 'numeric')],
  }),
});

/** An in-memory repository: what the recorder writes, batch by batch. */
function memoryRepository() {
  const series: Series[] = [];
  const batches: RawRow[][] = [];
  const gaps: { device_id: string; t: number }[] = [];
  const repository = {
    async ensureSeries(wanted: Omit<Series, 'id'>[]) {
      return wanted.map((w) => {
        let found = series.find((s) => s.device_id === w.device_id && s.property === w.property);
        if (!found) {
          found = { ...w, id: series.length + 1 };
          series.push(found);
        }
        return found;
      });
    },
    async insertRaw(rows: RawRow[]) {
      if (rows.length > 0) batches.push([...rows]);
    },
    async addGaps(rows: { device_id: string; t: number }[]) {
      gaps.push(...rows);
    },
  } as unknown as HistoryRepository;
  const readings = () =>
    batches
      .flat()
      .map((row) => ({ property: series.find((s) => s.id === row.series_id)!.property, t: row.t, v: row.v }));
  return { repository, batches, gaps, readings };
}

const MINUTE = 60_000;
let recorder: HistoryRecorder | undefined;
afterEach(async () => {
  await recorder?.close();
});

/** A recorder on `repository` that flushes only when told, nothing excluded. */
function recorderOn(repository: HistoryRepository, options: Partial<RecorderOptions> = {}) {
  recorder = new HistoryRecorder({
    repository,
    log: pino({ level: 'silent' }),
    heartbeatMs: MINUTE,
    flushIntervalMs: 60_000,
    ...options,
  });
  recorder.setExclusions([]);
  return recorder;
}

function setup(heartbeatMs = 10 * MINUTE) {
  const memory = memoryRepository();
  let now = 1_700_000_000_000;
  const recorder = recorderOn(memory.repository, { heartbeatMs, now: () => now });
  return {
    ...memory,
    recorder,
    advance: (ms: number) => {
      now += ms;
    },
    at: () => now,
  };
}

describe('the history recorder', () => {
  it('records numbers, on/off, enums and composite leaves by path; not text', async () => {
    const r = setup();
    r.recorder.stateReported(
      plug,
      { state: 'ON', power: 12.5, mode: 'eco', label: 'hi', color: { x: 0.1, y: 0.2 } },
      false,
    );
    await r.recorder.flush();
    expect(r.readings().map(({ property, v }) => [property, v])).toEqual([
      ['state', true],
      ['power', 12.5],
      ['mode', 'eco'],
      ['color.x', 0.1],
      ['color.y', 0.2],
    ]);
  });

  it('skips a repeat within the heartbeat and records it once the heartbeat has passed', async () => {
    const r = setup(10 * MINUTE);
    const t0 = r.at();
    r.recorder.stateReported(plug, { power: 5 }, false);
    r.advance(MINUTE);
    r.recorder.stateReported(plug, { power: 5 }, false); // repeat: skipped
    r.advance(MINUTE);
    r.recorder.stateReported(plug, { power: 6 }, false); // change: recorded
    r.advance(9 * MINUTE);
    r.recorder.stateReported(plug, { power: 6 }, false); // 9 min after the last record: skipped
    r.advance(MINUTE);
    r.recorder.stateReported(plug, { power: 6 }, false); // 10 min: recorded again
    r.recorder.stateReported(plug, { power: 6 }, false);
    await r.recorder.flush();
    expect(r.readings().map(({ t, v }) => [t - t0, v])).toEqual([
      [0, 5],
      [2 * MINUTE, 6],
      [12 * MINUTE, 6],
    ]);
  });

  it('ignores retained replays, excluded devices and properties, and values of the wrong kind', async () => {
    const r = setup();
    r.recorder.stateReported(plug, { power: 1 }, true);
    r.recorder.setExclusions([{ device_id: 'plug-1', property: 'power' }]);
    r.recorder.stateReported(plug, { power: 2, state: 'OFF', mode: 3, color: 'red' }, false);
    r.recorder.setExclusions([{ device_id: 'plug-1', property: '' }]);
    r.recorder.stateReported(plug, { power: 3, state: 'ON' }, false);
    await r.recorder.flush();
    expect(r.readings().map(({ property, v }) => [property, v])).toEqual([['state', false]]);
  });

  it('writes a batch in one call, and soon when the buffer is long', async () => {
    const r = setup();
    for (let i = 0; i < 3; i++) r.recorder.stateReported(plug, { power: i }, false);
    expect(r.batches).toEqual([]);
    await r.recorder.flush();
    expect(r.batches.map((b) => b.length)).toEqual([3]);
    for (let i = 0; i < 5000; i++) r.recorder.stateReported(plug, { power: 10 + i }, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.batches.map((b) => b.length)).toEqual([3, 5000]);
  });

  it('marks a gap when a device goes offline and records its next reading even if it repeats', async () => {
    const r = setup();
    r.recorder.stateReported(plug, { power: 7 }, false);
    r.advance(1000);
    r.recorder.onlineChanged(plug, false);
    r.advance(1000);
    r.recorder.onlineChanged(plug, true);
    r.recorder.stateReported(plug, { power: 7 }, false);
    await r.recorder.flush();
    expect(r.gaps).toEqual([{ device_id: 'plug-1', t: r.at() - 1000 }]);
    expect(r.readings().map(({ v }) => v)).toEqual([7, 7]);
  });

  it('keeps what it could not write and writes it once the database is back', async () => {
    const r = setup();
    const insert = r.repository.insertRaw.bind(r.repository);
    let failing = true;
    r.repository.insertRaw = async (rows) => {
      if (failing) throw new Error('database away');
      return insert(rows);
    };
    r.recorder.stateReported(plug, { power: 1 }, false);
    await r.recorder.flush();
    r.recorder.stateReported(plug, { power: 2 }, false);
    failing = false;
    await r.recorder.flush();
    expect(r.readings().map(({ v }) => v)).toEqual([1, 2]);
  });

  it('keeps at most maxBuffered readings while the database is away, dropping the oldest', async () => {
    const memory = memoryRepository();
    let failing = true;
    const insert = memory.repository.insertRaw.bind(memory.repository);
    memory.repository.insertRaw = async (rows) => {
      if (failing) throw new Error('database away');
      return insert(rows);
    };
    const r = recorderOn(memory.repository, { maxBuffered: 3 });
    for (let i = 1; i <= 5; i++) r.stateReported(plug, { power: i }, false);
    await r.flush();
    failing = false;
    await r.flush();
    expect(memory.readings().map(({ v }) => v)).toEqual([3, 4, 5]);
  });

  it('does not retry at once while writes fail, however long the buffer: the interval retries', async () => {
    const memory = memoryRepository();
    let attempts = 0;
    memory.repository.insertRaw = async () => {
      attempts++;
      throw new Error('the history worker stopped; it starts again shortly');
    };
    const r = recorderOn(memory.repository, { flushRows: 10 });
    for (let i = 0; i < 20; i++) r.stateReported(plug, { power: i }, false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 20; i < 40; i++) r.stateReported(plug, { power: i }, false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(attempts).toBe(1);
    recorder = undefined;
  });

  it('records an enum value only when its capability lists it, with one warning per device and property', async () => {
    const memory = memoryRepository();
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const r = recorderOn(memory.repository, { log });
    const other = { ...plug, id: 'plug-2' };
    r.stateReported(plug, { mode: 'eco' }, false);
    r.stateReported(plug, { mode: '=HYPERLINK("http://example.test/","x")' }, false);
    r.stateReported(plug, { mode: 'boost' }, false);
    r.stateReported(plug, { mode: '=EVIL()' }, false);
    r.stateReported(other, { mode: 'turbo' }, false);
    await r.flush();
    expect(memory.readings().map(({ property, v }) => [property, v])).toEqual([
      ['mode', 'eco'],
      ['mode', 'boost'],
    ]);
    expect(lines.map(({ device_id, property, msg }) => [device_id, property, msg])).toEqual([
      ['plug-1', 'mode', 'history: an enum value not in its list is not recorded'],
      ['plug-2', 'mode', 'history: an enum value not in its list is not recorded'],
    ]);
  });
});
