import { Readable } from 'node:stream';
import type {
  Device,
  HistoryAnswer,
  HistoryExclusions,
  HistoryPoint,
  HistoryResolution,
} from '@hearth/contracts';
import { type DeviceFeed, EVERYTHING, type Reach } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { csvField } from '../shared/csv.js';
import { yieldToEventLoop } from '../storage/batches.js';
import {
  type Bucket,
  bucketStart,
  combine,
  DAY,
  FIVE_MINUTES,
  HOUR,
  type Reading,
  type SeriesType,
} from './history.buckets.js';
import { HISTORY_ERRORS as E } from './history.errors.js';
import { GapMerge, withGaps } from './history.gaps.js';
import { encodeAnswer, slicesOf } from './history.json.js';
import { leafAt } from './history.leaves.js';
import type { Retention } from './history.maintenance.js';
import { HistoryPace, type Pause } from './history.pace.js';
import { HistoryQueue } from './history.queue.js';
import type { HistoryRecorder } from './history.recorder.js';
import type { HistoryRepository, Series } from './history.repository.js';
import type { ExclusionsBody, HistoryExportQuery, HistoryQuery } from './history.schemas.js';

export interface HistoryServiceOptions {
  repository: HistoryRepository;
  devices: Pick<DeviceFeed, 'find'>;
  recorder: Pick<HistoryRecorder, 'setExclusions'>;
  retention: Retention;
  /** Whose turn it is (docs/history.md#limits); default: the documented limits. */
  queue?: HistoryQueue;
  now?: () => number;
}

/** A caller's reach, asked for only once their request has its turn. */
type ReachOf = () => Promise<Reach>;

/** An answer's fields, and its points a page at a time, as they are read. */
interface Paged {
  head: Omit<HistoryAnswer, 'points'>;
  pages: AsyncIterable<readonly HistoryPoint[]>;
}

/** The range a request asks for when it gives none: the last 24 hours. */
const DEFAULT_RANGE_MS = DAY;

const gapBucket = (t: number): Bucket => ({ t, min: null, max: null, mean: null, last: null, count: 0 });

/**
 * Widths tried for hourly buckets, from the smallest that fits `points` without gaps: with their
 * gap entries, this many times wider always fits (at least 8 points), so the search ends here.
 */
const WIDEST_TRY = 16;

/** docs/history.md#api: what was recorded of a device's property, at a resolution that fits. */
export class HistoryService {
  private readonly now: () => number;

  private readonly queue: HistoryQueue;
  /** Shared by every history request: together they take at most half the server's thread. */
  private readonly pace = new HistoryPace();

  constructor(private readonly options: HistoryServiceOptions) {
    this.now = options.now ?? Date.now;
    this.queue = options.queue ?? new HistoryQueue();
  }

  /**
   * GET /api/history: the answer as JSON, once the person's turn has come (429 beyond their
   * limit, docs/history.md#limits); the reading and the encoding give the event loop turns.
   */
  async answer(person: string, query: HistoryQuery, reachOf: ReachOf): Promise<Buffer> {
    const release = await this.queue.enter(person);
    try {
      const { head, pages } = await this.paged(query, await reachOf(), this.pace.lane());
      return await encodeAnswer(head, pages);
    } finally {
      release();
    }
  }

  /** `reach`: the caller's (docs/access.md); a device it may not view is not found. */
  async query(query: HistoryQuery, reach: Reach = EVERYTHING): Promise<HistoryAnswer> {
    const { head, pages } = await this.paged(query, reach, yieldToEventLoop);
    const points: HistoryPoint[] = [];
    for await (const page of pages) points.push(...page);
    return { ...head, points };
  }

  /** The answer's fields, and its points a page at a time (docs/history.md#api). */
  private async paged(query: HistoryQuery, reach: Reach, pause: Pause): Promise<Paged> {
    const { device, series, type } = await this.find(query.device_id, query.property, reach);
    const { from, to } = this.range(query);
    const head = (resolution: HistoryResolution, bucket_ms: number): Paged['head'] => ({
      device_id: device.id,
      property: query.property,
      resolution,
      bucket_ms,
      type,
    });
    const whole = (resolution: HistoryResolution, bucket_ms: number, points: HistoryPoint[]): Paged => ({
      head: head(resolution, bucket_ms),
      pages: slicesOf(points, pause),
    });
    if (!series) return whole('raw', 0, []);
    const { repository, retention } = this.options;
    const { points } = query;
    const now = this.now();
    const gaps = await repository.gaps(device.id, from, to);
    const gapReading = (t: number): Reading => ({ t, v: null });

    if (from >= now - retention.rawDays * DAY) {
      const count = await repository.countRaw(series.id, from, to, points);
      if (count + gaps.length <= points) {
        // It fits, whatever the gaps: read and answered a page at a time (readings that
        // arrived since the count may make it more than fits: the latest then stay out).
        const merge = new GapMerge(gaps, gapReading);
        const pages = async function* () {
          const most = points - gaps.length;
          for await (const page of repository.rawPages(series.id, from, to, { most, type, pause }))
            yield merge.add(page);
          yield merge.finish();
        };
        return { head: head('raw', 0), pages: pages() };
      }
      if (count <= points) {
        // With its gaps it may not fit: read first (at most points + 1), then seen.
        const raw: Reading[] = [];
        for await (const page of repository.rawPages(series.id, from, to, {
          most: points + 1,
          type,
          pause,
        })) {
          raw.push(...page);
        }
        const readings = withGaps(raw, gaps, gapReading);
        if (readings.length <= points) return whole('raw', 0, readings);
      }
    }
    if (from >= now - retention.fiveMinuteDays * DAY && (to - from) / FIVE_MINUTES <= points) {
      const buckets = withGaps(await this.buckets(series.id, '5m', from, to, pause), gaps, gapBucket);
      if (buckets.length <= points)
        return whole(
          '5m',
          FIVE_MINUTES,
          buckets.map((b) => this.shape(b, type)),
        );
    }
    // A range of more hours than points: hours merged n at a time, n as small as fits.
    const n = Math.max(1, Math.ceil((to - from) / HOUR / points));
    const hourly = await this.buckets(series.id, '1h', from, to, pause, n * HOUR);
    let buckets: Bucket[] = [];
    let width = n * HOUR;
    for (let k = 1; k <= WIDEST_TRY; k++) {
      width = k * n * HOUR;
      buckets = withGaps(k === 1 ? hourly : combine(hourly, width), gaps, gapBucket);
      if (buckets.length <= points) break;
    }
    // Only for fewer than 8 points with gaps between them: the latest that fit, from an entry on.
    if (buckets.length > points) {
      buckets = buckets.slice(-points);
      while (buckets[0]?.count === 0) buckets.shift();
    }
    return whole(
      '1h',
      width,
      buckets.map((b) => this.shape(b, type)),
    );
  }

  /**
   * GET /api/history/export: CSV `time,value` of the finest data kept for each part of the range
   * (docs/history.md#api), read and sent a page at a time; the person's turn (docs/history.md#limits)
   * is held until the body has been sent or dropped.
   */
  async export(
    person: string,
    query: HistoryExportQuery,
    reachOf: ReachOf,
  ): Promise<{ filename: string; body: Readable }> {
    const release = await this.queue.enter(person);
    try {
      const { filename, lines } = await this.csv(query, await reachOf(), this.pace.lane());
      const body = Readable.from(lines);
      body.once('close', release);
      return { filename, body };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The export's file name and lines. */
  private async csv(
    query: HistoryExportQuery,
    reach: Reach,
    pause: Pause,
  ): Promise<{ filename: string; lines: AsyncGenerator<string> }> {
    const { device, series } = await this.find(query.device_id, query.property, reach);
    const { from, to } = this.range(query);
    const { repository } = this.options;
    const filename = `${device.name}-${query.property}`.replace(/[^\w.-]+/g, '_');
    // Enum values are text from the device: a spreadsheet must not run one as a formula.
    const value = (v: unknown) =>
      v === null || v === undefined ? '' : typeof v === 'string' ? csvField(v) : String(v);
    const line = (t: number, v: unknown) => `${new Date(t).toISOString()},${value(v)}\n`;
    async function* lines(): AsyncGenerator<string> {
      yield 'time,value\n';
      if (!series) return;
      const rawFrom = (await repository.oldestOf('history_raw', series.id)) ?? to;
      const fiveFrom = Math.min(rawFrom, (await repository.oldestOf('history_5m', series.id)) ?? rawFrom);
      const buckets: ['history_1h' | 'history_5m', number, number][] = [
        ['history_1h', from, Math.min(to, fiveFrom)],
        ['history_5m', Math.max(from, fiveFrom), Math.min(to, rawFrom)],
      ];
      for (const [table, start, end] of buckets) {
        for await (const page of repository.bucketPages(table, series.id, start, end, { pause })) {
          yield page.map((row) => line(row.t, row.mean ?? row.last)).join('');
        }
      }
      for await (const page of repository.rawPages(series.id, Math.max(from, rawFrom), to, {
        type: series.type,
        pause,
      })) {
        yield page.map((row) => line(row.t, row.v)).join('');
      }
    }
    return { filename, lines: lines() };
  }

  /** What is not recorded of a device the caller may view (docs/history.md#api); else 404. */
  async exclusions(deviceId: string, reach: Reach = EVERYTHING): Promise<HistoryExclusions> {
    this.reachable(deviceId, reach);
    return this.exclusionsOf(deviceId);
  }

  /** Replaces them: the caller needs `control` of the device (404 outside their reach, 403 with `view`). */
  async setExclusions(
    deviceId: string,
    body: ExclusionsBody,
    reach: Reach = EVERYTHING,
  ): Promise<HistoryExclusions> {
    const device = this.reachable(deviceId, reach);
    if (!reach.everything && reach.levelOf(device.id) !== 'control') throw new HttpError(403, E.viewOnly);
    const properties = [...new Set(body.properties.map((p) => p.trim()).filter(Boolean))];
    await this.options.repository.setExclusions(deviceId, body.device, properties);
    this.options.recorder.setExclusions(await this.options.repository.exclusions());
    return this.exclusionsOf(deviceId);
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────

  /** The device, if the hub lists it and the caller may view it: to others it does not exist (docs/access.md). */
  private reachable(id: string, reach: Reach): Device {
    const device = this.options.devices.find(id);
    if (!device || (!reach.everything && reach.levelOf(device.id) === 'none'))
      throw new HttpError(404, E.deviceNotFound);
    return device;
  }

  private async exclusionsOf(deviceId: string): Promise<HistoryExclusions> {
    const rows = (await this.options.repository.exclusions()).filter((r) => r.device_id === deviceId);
    return {
      device_id: deviceId,
      device: rows.some((r) => r.property === ''),
      properties: rows
        .filter((r) => r.property !== '')
        .map((r) => r.property)
        .sort(),
    };
  }

  /** The device, its series (none yet when nothing is recorded) and the property's type; 404s. */
  private async find(
    deviceId: string,
    property: string,
    reach: Reach,
  ): Promise<{ device: Device; series: Series | undefined; type: SeriesType }> {
    // docs/access.md: whoever may view the device may read its history.
    const device = this.reachable(deviceId, reach);
    const series = await this.options.repository.series(device.id, property);
    if (series) return { device, series, type: series.type };
    const leaf = leafAt(device, property);
    if (!leaf) throw new HttpError(404, E.propertyNotFound);
    return { device, series: undefined, type: leaf.type };
  }

  private range(query: { from?: number | undefined; to?: number | undefined }) {
    const to = query.to ?? this.now();
    const from = query.from ?? to - DEFAULT_RANGE_MS;
    if (!(from < to)) throw new HttpError(400, E.range);
    return { from, to };
  }

  /**
   * Buckets of `resolution` overlapping [from, to): stored ones up to the roll-up's mark, and
   * beyond it (the last minutes or hour) computed from the finer data, so a chart reaches now;
   * hourly ones merged into `width` (a multiple of an hour).
   */
  private async buckets(
    seriesId: number,
    resolution: '5m' | '1h',
    from: number,
    to: number,
    pause: Pause,
    width = resolution === '5m' ? FIVE_MINUTES : HOUR,
  ): Promise<Bucket[]> {
    const { repository } = this.options;
    const start = bucketStart(from, width);
    const five = (await repository.progress('rollup_5m')) ?? start;
    // Whatever the roll-up has not reached, merged in SQL: a bucket per row, however many readings.
    const fromRaw = async (a: number) => (a < to ? repository.rawMerged(seriesId, a, to, width) : []);
    const pages = async (table: 'history_5m' | 'history_1h', a: number, b: number) => {
      const out: Bucket[] = [];
      for await (const page of repository.bucketPages(table, seriesId, a, b, { pause })) out.push(...page);
      return out;
    };
    if (resolution === '5m') {
      // The caller asks for no more 5-minute buckets than points.
      const stored = await pages('history_5m', start, Math.min(to, five));
      return [...stored, ...(await fromRaw(Math.max(start, five)))];
    }
    const hour = Math.min((await repository.progress('rollup_1h')) ?? start, bucketStart(five, HOUR));
    const stored =
      width === HOUR
        ? await pages('history_1h', start, Math.min(to, hour))
        : await repository.bucketsMerged('history_1h', seriesId, start, Math.min(to, hour), width);
    await pause();
    const fromFive =
      hour < Math.min(to, five)
        ? await repository.bucketsMerged(
            'history_5m',
            seriesId,
            Math.max(start, hour),
            Math.min(to, five),
            width,
          )
        : [];
    const tail = await fromRaw(Math.max(start, hour, five));
    return combine([...stored, ...fromFive, ...tail], width);
  }

  private shape(bucket: Bucket, type: SeriesType): HistoryPoint {
    if (type === 'number') {
      return {
        t: bucket.t,
        min: bucket.min,
        max: bucket.max,
        mean: bucket.mean,
        last: bucket.last as number | null,
        count: bucket.count,
      };
    }
    return { t: bucket.t, last: bucket.last as boolean | string | null, count: bucket.count };
  }
}
