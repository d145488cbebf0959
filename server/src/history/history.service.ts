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
import {
  type Bucket,
  bucketize,
  bucketStart,
  combine,
  DAY,
  FIVE_MINUTES,
  HOUR,
  type Reading,
  type SeriesType,
} from './history.buckets.js';
import { HISTORY_ERRORS as E } from './history.errors.js';
import { leafAt } from './history.leaves.js';
import type { Retention } from './history.maintenance.js';
import type { HistoryRecorder } from './history.recorder.js';
import type { HistoryRepository, Series } from './history.repository.js';
import type { ExclusionsBody, HistoryExportQuery, HistoryQuery } from './history.schemas.js';

export interface HistoryServiceOptions {
  repository: HistoryRepository;
  devices: Pick<DeviceFeed, 'find'>;
  recorder: Pick<HistoryRecorder, 'setExclusions'>;
  retention: Retention;
  now?: () => number;
}

/** The range a request asks for when it gives none: the last 24 hours. */
const DEFAULT_RANGE_MS = DAY;
/** Rows the CSV export reads at a time. */
const EXPORT_PAGE = 5000;

const gapBucket = (t: number): Bucket => ({ t, min: null, max: null, mean: null, last: null, count: 0 });

/**
 * Entries and gap markers in time order: a gap goes after the last entry before or at its time,
 * and several gaps with no entry between them count once.
 */
function withGaps<T extends { t: number }>(
  entries: readonly T[],
  gaps: readonly number[],
  gap: (t: number) => T,
): T[] {
  if (gaps.length === 0) return [...entries];
  const out: T[] = [];
  let g = 0;
  let lastWasGap = true;
  for (const entry of entries) {
    let pending: number | undefined;
    while (g < gaps.length && gaps[g]! < entry.t) pending ??= gaps[g++];
    if (pending !== undefined && !lastWasGap) out.push(gap(Math.max(pending, out[out.length - 1]!.t)));
    out.push(entry);
    lastWasGap = false;
  }
  if (g < gaps.length && !lastWasGap) out.push(gap(Math.max(gaps[g]!, out[out.length - 1]!.t)));
  return out;
}

/** docs/history.md#api: what was recorded of a device's property, at a resolution that fits. */
export class HistoryService {
  private readonly now: () => number;

  constructor(private readonly options: HistoryServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** `reach`: the caller's (docs/access.md); a device it may not view is not found. */
  async query(query: HistoryQuery, reach: Reach = EVERYTHING): Promise<HistoryAnswer> {
    const { device, series, type } = await this.find(query.device_id, query.property, reach);
    const { from, to } = this.range(query);
    const answer = (
      resolution: HistoryResolution,
      bucket_ms: number,
      points: HistoryPoint[],
    ): HistoryAnswer => ({
      device_id: device.id,
      property: query.property,
      resolution,
      bucket_ms,
      type,
      points,
    });
    if (!series) return answer('raw', 0, []);
    const { repository, retention } = this.options;
    const { points } = query;
    const now = this.now();
    const gaps = await repository.gaps(device.id, from, to);

    if (from >= now - retention.rawDays * DAY) {
      const count = await repository.countRaw(series.id, from, to, points);
      if (count <= points) {
        const readings = withGaps(
          await repository.raw(series.id, from, to),
          gaps,
          (t): Reading => ({ t, v: null }),
        );
        if (readings.length <= points) return answer('raw', 0, readings);
      }
    }
    if (from >= now - retention.fiveMinuteDays * DAY && (to - from) / FIVE_MINUTES <= points) {
      const buckets = withGaps(await this.buckets(series.id, '5m', from, to), gaps, gapBucket);
      if (buckets.length <= points)
        return answer(
          '5m',
          FIVE_MINUTES,
          buckets.map((b) => this.shape(b, type)),
        );
    }
    // A range of more hours than points: hours merged n at a time, n as small as fits.
    const n = Math.max(1, Math.ceil((to - from) / HOUR / points));
    const hourly = await this.buckets(series.id, '1h', from, to, n * HOUR);
    for (let k = 1; ; k++) {
      const width = k * n * HOUR;
      const buckets = withGaps(k === 1 ? hourly : combine(hourly, width), gaps, gapBucket);
      if (buckets.length <= points)
        return answer(
          '1h',
          width,
          buckets.map((b) => this.shape(b, type)),
        );
    }
  }

  /** CSV `time,value` of the finest data kept for each part of the range (docs/history.md#api). */
  async export(
    query: HistoryExportQuery,
    reach: Reach = EVERYTHING,
  ): Promise<{ filename: string; body: Readable }> {
    const { device, series } = await this.find(query.device_id, query.property, reach);
    const { from, to } = this.range(query);
    const { repository } = this.options;
    const filename = `${device.name}-${query.property}`.replace(/[^\w.-]+/g, '_');
    async function* lines(): AsyncGenerator<string> {
      yield 'time,value\n';
      if (!series) return;
      const rawFrom = (await repository.oldestOf('history_raw', series.id)) ?? to;
      const fiveFrom = Math.min(rawFrom, (await repository.oldestOf('history_5m', series.id)) ?? rawFrom);
      const value = (v: unknown) => (v === null || v === undefined ? '' : csvField(String(v)));
      const line = (t: number, v: unknown) => `${new Date(t).toISOString()},${value(v)}\n`;
      const segments: ['history_1h' | 'history_5m' | 'history_raw', number, number][] = [
        ['history_1h', from, Math.min(to, fiveFrom)],
        ['history_5m', Math.max(from, fiveFrom), Math.min(to, rawFrom)],
        ['history_raw', Math.max(from, rawFrom), to],
      ];
      for (const [table, start, end] of segments) {
        let cursor = start;
        while (cursor < end) {
          let chunk = '';
          let count = 0;
          let lastT = cursor;
          if (table === 'history_raw') {
            const rows = await repository.raw(series.id, cursor, end, EXPORT_PAGE);
            for (const row of rows) chunk += line(row.t, row.v);
            count = rows.length;
            lastT = rows[rows.length - 1]?.t ?? end;
          } else {
            const rows = await repository.buckets(table, series.id, cursor, end);
            for (const row of rows) chunk += line(row.t, row.mean ?? row.last);
            count = rows.length;
            lastT = end - 1;
          }
          if (chunk) yield chunk;
          if (count < EXPORT_PAGE) break;
          cursor = lastT + 1;
        }
      }
    }
    return { filename, body: Readable.from(lines()) };
  }

  async exclusions(deviceId: string): Promise<HistoryExclusions> {
    this.device(deviceId);
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

  async setExclusions(deviceId: string, body: ExclusionsBody): Promise<HistoryExclusions> {
    this.device(deviceId);
    const properties = [...new Set(body.properties.map((p) => p.trim()).filter(Boolean))];
    await this.options.repository.setExclusions(deviceId, body.device, properties);
    this.options.recorder.setExclusions(await this.options.repository.exclusions());
    return this.exclusions(deviceId);
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────

  private device(id: string): Device {
    const device = this.options.devices.find(id);
    if (!device) throw new HttpError(404, E.deviceNotFound);
    return device;
  }

  /** The device, its series (none yet when nothing is recorded) and the property's type; 404s. */
  private async find(
    deviceId: string,
    property: string,
    reach: Reach,
  ): Promise<{ device: Device; series: Series | undefined; type: SeriesType }> {
    const device = this.device(deviceId);
    // docs/access.md: whoever may view the device may read its history; to others it does not exist.
    if (!reach.everything && reach.levelOf(device.id) === 'none') throw new HttpError(404, E.deviceNotFound);
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
    width = resolution === '5m' ? FIVE_MINUTES : HOUR,
  ): Promise<Bucket[]> {
    const { repository } = this.options;
    const start = bucketStart(from, width);
    const five = (await repository.progress('rollup_5m')) ?? start;
    const fromRaw = async (a: number) =>
      a < to ? bucketize(await repository.raw(seriesId, a, to), width) : [];
    if (resolution === '5m') {
      const stored = await repository.buckets('history_5m', seriesId, start, Math.min(to, five));
      return [...stored, ...(await fromRaw(Math.max(start, five)))];
    }
    const hour = Math.min((await repository.progress('rollup_1h')) ?? start, bucketStart(five, HOUR));
    const stored =
      width === HOUR
        ? await repository.buckets('history_1h', seriesId, start, Math.min(to, hour))
        : await repository.bucketsMerged('history_1h', seriesId, start, Math.min(to, hour), width);
    const fromFive =
      hour < Math.min(to, five)
        ? await repository.buckets('history_5m', seriesId, Math.max(start, hour), Math.min(to, five))
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

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
