import type { Capability, Device, HistoryNumericBucket, HistoryRawPoint } from '@hearth/contracts';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import type { Storage } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { bucketStart, DAY, FIVE_MINUTES, HOUR, MINUTE, type Reading } from './history.buckets.js';
import { HistoryMaintenance, type Retention } from './history.maintenance.js';
import { HistoryRepository } from './history.repository.js';
import { HistoryService } from './history.service.js';

/** What a bucket of these readings must hold, computed directly. */
function direct(readings: readonly Reading[], width: number) {
  const groups = new Map<number, Reading[]>();
  for (const r of readings) {
    const start = bucketStart(r.t, width);
    groups.set(start, [...(groups.get(start) ?? []), r]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, group]) => {
      const values = group.map((r) => r.v as number);
      const latest = group.reduce((a, b) => (b.t > a.t ? b : a));
      return {
        t,
        min: Math.min(...values),
        max: Math.max(...values),
        mean: values.reduce((a, b) => a + b, 0) / values.length,
        last: latest.v,
        count: group.length,
      };
    });
}

const access = { readOnly: true, write: false, set: false };
const sensor = (id: string): Device =>
  ({
    id,
    name: id,
    capabilities: [
      {
        id: 'temperature',
        property: 'temperature',
        name: 't',
        kind: 'numeric',
        type: 'numeric',
        value_type: 'number',
        access,
      },
    ] as Capability[],
  }) as unknown as Device;

describe.each(testDatabases())('history storage on $name', ({ create }) => {
  let storage: Storage;
  let repository: HistoryRepository;
  let drop: () => Promise<void>;
  let now = Date.UTC(2026, 0, 1);
  const retention: Retention = { rawDays: 10, fiveMinuteDays: 90, hourlyDays: undefined };
  const maintenance = (r: Retention = retention) =>
    new HistoryMaintenance({
      repository,
      log: pino({ level: 'silent' }),
      retention: r,
      now: () => now,
      intervalMs: 0,
    });
  const devices = new Map<string, Device>();
  const service = () =>
    new HistoryService({
      repository,
      devices: { find: (id) => devices.get(id) },
      recorder: { setExclusions: () => {} },
      retention,
      now: () => now,
    });
  let counter = 0;
  const newSeries = async () => {
    const id = `sensor-${++counter}`;
    devices.set(id, sensor(id));
    const [series] = await repository.ensureSeries([
      { device_id: id, property: 'temperature', type: 'number' },
    ]);
    return { deviceId: id, seriesId: series!.id };
  };

  beforeAll(async () => {
    const database = await create();
    storage = database.open();
    await migrateToLatest(storage.db);
    repository = new HistoryRepository(storage.db);
    drop = async () => {
      await storage.close();
      await database.drop();
    };
  });
  afterAll(async () => {
    await drop?.();
  });

  it('rolls up to 5-minute and hourly buckets equal to a direct computation over random readings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            offset: fc.integer({ min: 0, max: 3 * HOUR }),
            v: fc.oneof(
              fc.integer({ min: -1000, max: 1000 }),
              fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => (v === 0 ? 0 : v)),
            ),
          }),
          { minLength: 1, maxLength: 120, selector: (r) => r.offset },
        ),
        async (generated) => {
          // Each run lies after the previous one: the roll-up's mark only moves forward.
          const base = bucketStart(now, HOUR) + DAY + 7 * MINUTE;
          const { deviceId, seriesId } = await newSeries();
          const readings = generated
            .map(({ offset, v }) => ({ t: base + offset, v }))
            .sort((a, b) => a.t - b.t);
          await repository.insertRaw(readings.map((r) => ({ series_id: seriesId, ...r })));
          now = base + 5 * HOUR;
          await maintenance().runUntilIdle();
          const far = base + 10 * HOUR;
          const close = (actual: { mean: number | null }[], expected: { mean: number }[]) => {
            expect(actual.length).toBe(expected.length);
            actual.forEach((bucket, i) => {
              expect(bucket.mean!).toBeCloseTo(expected[i]!.mean, Math.abs(expected[i]!.mean) > 1e3 ? 3 : 6);
            });
          };
          const withoutMean = <T extends { mean: unknown }>(list: T[]) =>
            list.map(({ mean: _, ...rest }) => rest);
          const five = await repository.buckets('history_5m', seriesId, 0, far);
          expect(withoutMean(five)).toEqual(withoutMean(direct(readings, FIVE_MINUTES)));
          close(five, direct(readings, FIVE_MINUTES));
          const hourly = await repository.buckets('history_1h', seriesId, 0, far);
          expect(withoutMean(hourly)).toEqual(withoutMean(direct(readings, HOUR)));
          close(hourly, direct(readings, HOUR));
          // The API's 1-hour answer (the whole range asks for it) says the same.
          const answer = await service().query({
            device_id: deviceId,
            property: 'temperature',
            from: base - 80 * DAY,
            to: base + 4 * HOUR,
            points: 5000,
          });
          expect(answer.resolution).toBe('1h');
          expect(withoutMean(answer.points as HistoryNumericBucket[])).toEqual(
            withoutMean(direct(readings, HOUR)),
          );
        },
      ),
      { numRuns: 12 },
    );
  });

  it('keeps the last on/off or enum value and the count in each bucket', async () => {
    const base = bucketStart(now, HOUR) + DAY;
    const [series] = await repository.ensureSeries([
      { device_id: 'door', property: 'contact', type: 'boolean' },
    ]);
    await repository.insertRaw(
      [true, false, true, false].map((v, i) => ({ series_id: series!.id, t: base + i * 2 * MINUTE, v })),
    );
    now = base + 2 * HOUR;
    await maintenance().runUntilIdle();
    const five = await repository.buckets('history_5m', series!.id, base, base + HOUR);
    expect(five.map(({ t, last, count, min }) => [t - base, last, count, min])).toEqual([
      [0, true, 3, null],
      [5 * MINUTE, false, 1, null],
    ]);
  });

  it('reads buckets and readings a page at a time, each once and in order, at most as many as asked', async () => {
    const { seriesId } = await newSeries();
    const base = bucketStart(now, HOUR) + 1000 * DAY;
    await repository.upsertBuckets(
      'history_5m',
      Array.from({ length: 25 }, (_, i) => ({
        series_id: seriesId,
        t: base + i * FIVE_MINUTES,
        min: i,
        max: i,
        mean: i,
        last: i,
        count: 1,
      })),
    );
    const pages = async <T>(read: AsyncGenerator<T[]>) => {
      const out: T[][] = [];
      for await (const page of read) out.push(page);
      return out;
    };
    const buckets = await pages(
      repository.bucketPages('history_5m', seriesId, base, base + DAY, { page: 10 }),
    );
    expect(buckets.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(buckets.flat().map((b) => b.mean)).toEqual(Array.from({ length: 25 }, (_, i) => i));

    // Readings sharing a millisecond across a page's end, and more of one millisecond than a page.
    const times = [0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 5, 5, 6];
    await repository.insertRaw(times.map((t, i) => ({ series_id: seriesId, t: base + t, v: i })));
    const sorted = (list: { t: number; v: unknown }[]) =>
      [...list].sort((a, b) => a.t - b.t || Number(a.v) - Number(b.v));
    const all = await repository.raw(seriesId, base, base + 10);
    for (const page of [1, 2, 4, 5, 100]) {
      const read = await pages(repository.rawPages(seriesId, base, base + 10, { page }));
      expect(
        read.every((p) => p.length > 0 && p.length <= page),
        `page ${page}`,
      ).toBe(true);
      expect(
        read.flat().map((r) => r.t),
        `page ${page}`,
      ).toEqual(all.map((r) => r.t));
      expect(sorted(read.flat()), `page ${page}`).toEqual(sorted(all));
      const first = (await pages(repository.rawPages(seriesId, base, base + 10, { page, most: 7 }))).flat();
      expect(
        first.map((r) => r.t),
        `page ${page}, most 7`,
      ).toEqual(all.slice(0, 7).map((r) => r.t));
    }
    expect(await repository.countRaw(seriesId, base, base + 10, 5)).toBe(6);
    expect(await repository.countRaw(seriesId, base, base + 10, 100)).toBe(times.length);
  });

  it('is idle (its worker may end) only once a step found nothing, until readings are written', async () => {
    const m = maintenance();
    expect(m.idle).toBe(false);
    await m.runUntilIdle();
    expect(m.idle).toBe(true);
    m.written(now - DAY);
    expect(m.idle).toBe(false);
  });

  describe('with a sensor read every minute for two days, and every 30 minutes for 100 days before', () => {
    let deviceId: string;
    let end: number;
    beforeAll(async () => {
      now = bucketStart(now, HOUR) + 400 * DAY;
      end = now;
      ({ deviceId } = await newSeries());
      const { seriesId } = { seriesId: (await repository.series(deviceId, 'temperature'))!.id };
      const rows = [];
      for (let t = end - 102 * DAY; t < end - 2 * DAY; t += 30 * MINUTE)
        rows.push({ series_id: seriesId, t, v: 20 });
      for (let t = end - 2 * DAY; t < end; t += MINUTE)
        rows.push({ series_id: seriesId, t, v: (t / MINUTE) % 7 });
      await repository.insertRaw(rows);
      await maintenance().runUntilIdle();
      // 100 days of rollups: on PostgreSQL with the whole suite beside it, more than the default minute.
    }, 180_000);
    const ask = (from: number, to: number, points = 1000) =>
      service().query({ device_id: deviceId, property: 'temperature', from, to, points });

    it('answers each range at the resolution that fits, never more than `points` entries, oldest first', async () => {
      const cases: [string, number, number, number, string, number][] = [
        ['6 h', end - 6 * HOUR, end, 1000, 'raw', 0],
        ['24 h', end - DAY, end, 1000, '5m', FIVE_MINUTES],
        ['24 h in 300 points', end - DAY, end, 300, '5m', FIVE_MINUTES],
        ['24 h in 100 points', end - DAY, end, 100, '1h', HOUR],
        ['30 days', end - 30 * DAY, end, 1000, '1h', HOUR],
        ['1 year', end - 365 * DAY, end, 1000, '1h', 9 * HOUR],
        ['a day 95 days ago', end - 95 * DAY, end - 94 * DAY, 1000, '1h', HOUR],
      ];
      for (const [name, from, to, points, resolution, bucket] of cases) {
        const answer = await ask(from, to, points);
        expect([answer.resolution, answer.bucket_ms], name).toEqual([resolution, bucket]);
        expect(answer.points.length, name).toBeLessThanOrEqual(points);
        expect(answer.points.length, name).toBeGreaterThan(0);
        const times = answer.points.map((p) => p.t);
        expect(times, name).toEqual([...times].sort((a, b) => a - b));
      }
      // Merged hours keep every reading: counts add up, min and max span the values, the last is the last.
      const year = (await ask(end - 365 * DAY, end)).points as HistoryNumericBucket[];
      expect(year.reduce((sum, p) => sum + p.count, 0)).toBe(100 * 48 + 2 * 24 * 60);
      expect(Math.min(...year.map((p) => p.min!))).toBe(0);
      expect(Math.max(...year.map((p) => p.max!))).toBe(20);
      expect(year.at(-1)!.last).toBe(((end - MINUTE) / MINUTE) % 7);
      const oldest = year.find((p) => p.count > 0)!;
      expect([oldest.min, oldest.mean, oldest.max]).toEqual([20, 20, 20]);
      const raw = (await ask(end - 6 * HOUR, end)).points as HistoryRawPoint[];
      expect(raw.length).toBe(360);
      expect(raw[0]).toEqual({ t: end - 6 * HOUR, v: ((end - 6 * HOUR) / MINUTE) % 7 });
      // The 5-minute answer reaches now, and its last bucket holds the last 5 readings.
      const five = (await ask(end - DAY, end)).points as HistoryNumericBucket[];
      expect(five.length).toBe(288);
      expect(five.at(-1)).toMatchObject({ t: end - FIVE_MINUTES, count: 5 });
    });

    it('keeps raw readings 10 days, 5-minute buckets 90 days and hourly ones forever', async () => {
      expect(
        await repository.oldestOf('history_raw', (await repository.series(deviceId, 'temperature'))!.id),
      ).toBe(end - 10 * DAY);
      const id = (await repository.series(deviceId, 'temperature'))!.id;
      expect(await repository.oldestOf('history_5m', id)).toBe(end - 90 * DAY);
      expect(await repository.oldestOf('history_1h', id)).toBe(end - 102 * DAY);
      // An old day still answers, from the hourly buckets, with the values it had.
      const old = await ask(end - 101 * DAY, end - 100 * DAY);
      expect(old.points).toHaveLength(24);
      expect(old.points[0]).toEqual({ t: end - 101 * DAY, min: 20, max: 20, mean: 20, last: 20, count: 2 });
      // With HISTORY_HOURLY_DAYS the hourly ones go too.
      await maintenance({ ...retention, hourlyDays: 95 }).runUntilIdle();
      expect(await repository.oldestOf('history_1h', id)).toBe(end - 95 * DAY);
    });

    it('answers gaps (Hearth not running, the device offline) as gap entries', async () => {
      await repository.addGaps([
        { device_id: '', t: end - 3 * HOUR - 30_000 },
        { device_id: deviceId, t: end - 2 * HOUR - 30_000 },
        { device_id: 'another-device', t: end - HOUR - 30_000 },
      ]);
      const raw = (await ask(end - 6 * HOUR, end)).points as HistoryRawPoint[];
      expect(raw.filter((p) => p.v === null).map((p) => p.t)).toEqual(
        [end - 3 * HOUR - 60_000, end - 2 * HOUR - 60_000].map((t) => t + 30_000),
      );
      expect(raw.length).toBe(362);
      const hourly = (await ask(end - DAY, end, 100)).points as HistoryNumericBucket[];
      const gaps = hourly.filter((p) => p.count === 0);
      expect(gaps).toEqual([
        { t: end - 3 * HOUR - 30_000, min: null, max: null, mean: null, last: null, count: 0 },
        { t: end - 2 * HOUR - 30_000, min: null, max: null, mean: null, last: null, count: 0 },
      ]);
    });

    it('answers as few as 2 points whatever the gaps: never more than asked, never a gap first', async () => {
      const ask2 = async (from: number, to: number, points: number) => {
        const answer = await ask(from, to, points);
        expect(answer.points.length, `${points} points`).toBeLessThanOrEqual(points);
        expect(answer.points.length, `${points} points`).toBeGreaterThan(0);
        expect((answer.points[0] as HistoryNumericBucket).count, `${points} points`).toBeGreaterThan(0);
        return answer;
      };
      // A gap (Hearth restarting, the device going offline) in every other hour of the last 3 days.
      await repository.addGaps(
        Array.from({ length: 36 }, (_, i) => ({
          device_id: deviceId,
          t: end - 3 * DAY + i * 2 * HOUR + 30_000,
        })),
      );
      for (const points of [2, 3, 4, 5, 7, 8, 13]) {
        for (const span of [DAY, 3 * DAY, 30 * DAY, 365 * DAY]) await ask2(end - span, end, points);
      }
    });

    it('rolls up again readings written late, behind the roll-up', async () => {
      const id = (await repository.series(deviceId, 'temperature'))!.id;
      const t = end - 3 * DAY + 2 * MINUTE;
      const m = maintenance();
      await repository.insertRaw([{ series_id: id, t, v: 1000 }]);
      m.written(t);
      await m.runUntilIdle();
      const [bucket] = await repository.buckets('history_5m', id, bucketStart(t, FIVE_MINUTES), t + 1);
      expect(bucket).toMatchObject({ max: 1000, count: 2 });
      const [hour] = await repository.buckets('history_1h', id, bucketStart(t, HOUR), t + 1);
      expect(hour).toMatchObject({ max: 1000, count: 3 });
    });
  });
});
