import type { Device, HistoryAnswer, HistoryExclusions } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

export type Loaded<T> = { ok: true; data: T } | { ok: false; status: number; error: string | undefined };

/** The device, from GET /api/devicehub/devices (docs/api.md#devices). */
export async function fetchDevice(id: string): Promise<Loaded<Device | undefined>> {
  const result = await api.get<Device[]>('/api/devicehub/devices');
  if (!result.success || !Array.isArray(result.data))
    return { ok: false, status: result.status, error: result.error };
  return { ok: true, data: result.data.find((device) => device.id === id) };
}

/** How often a chart refused with 429 (docs/history.md#limits) is asked for again. */
export const HISTORY_RETRIES = 3;

/**
 * Chart requests the app has in flight at once: the server runs 2 of a person's and queues 6 more
 * (docs/history.md#limits), so a device page with a dozen charts, beside a few sparklines, is not
 * refused; the rest wait here for their turn.
 */
export const HISTORY_IN_FLIGHT = 4;
let inFlight = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(call: () => Promise<T>): Promise<T> {
  while (inFlight >= HISTORY_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  inFlight++;
  try {
    return await call();
  } finally {
    inFlight--;
    waiting.shift()?.();
  }
}

/**
 * GET /api/history (docs/history.md#api), at most HISTORY_IN_FLIGHT at a time; a chart the server
 * refuses with 429 all the same is asked for again after the answer's `retry_after` seconds.
 */
export async function fetchHistory(
  deviceId: string,
  property: string,
  from: number,
  to: number,
  points: number,
): Promise<Loaded<HistoryAnswer>> {
  const query = { device_id: deviceId, property, from: Math.floor(from), to: Math.ceil(to), points };
  for (let attempt = 0; ; attempt++) {
    const result = await inTurn(() => api.get<HistoryAnswer>('/api/history', query));
    if (result.success) return { ok: true, data: result.data };
    if (result.status !== 429 || attempt >= HISTORY_RETRIES)
      return { ok: false, status: result.status, error: result.error };
    const seconds = Number((result.data as { retry_after?: unknown } | null)?.retry_after);
    await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) ? seconds : 1) * 1000));
  }
}

/**
 * GET /api/history/export for one property over a range (docs/history.md#api), as a link: the
 * auth_token cookie signs the download in, and the server names the file.
 */
export function exportHref(deviceId: string, property: string, from: number, to: number): string {
  const query = new URLSearchParams({
    device_id: deviceId,
    property,
    from: String(Math.floor(from)),
    to: String(Math.ceil(to)),
  });
  return `/api/history/export?${query}`;
}

/** GET /api/history/exclusions/{device_id} (docs/history.md#api). */
export async function fetchExclusions(deviceId: string): Promise<Loaded<HistoryExclusions>> {
  const result = await api.get<HistoryExclusions>(`/api/history/exclusions/${encodeURIComponent(deviceId)}`);
  if (!result.success) return { ok: false, status: result.status, error: result.error };
  return { ok: true, data: result.data };
}

/** PUT /api/history/exclusions/{device_id}: replaces the device's exclusions. */
export async function saveExclusions(
  deviceId: string,
  exclusions: Pick<HistoryExclusions, 'device' | 'properties'>,
): Promise<Loaded<HistoryExclusions>> {
  const result = await api.put<HistoryExclusions>(
    `/api/history/exclusions/${encodeURIComponent(deviceId)}`,
    exclusions,
  );
  if (!result.success) return { ok: false, status: result.status, error: result.error };
  return { ok: true, data: result.data };
}
