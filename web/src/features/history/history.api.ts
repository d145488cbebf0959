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

/** GET /api/history (docs/history.md#api). */
export async function fetchHistory(
  deviceId: string,
  property: string,
  from: number,
  to: number,
  points: number,
): Promise<Loaded<HistoryAnswer>> {
  const result = await api.get<HistoryAnswer>('/api/history', {
    device_id: deviceId,
    property,
    from: Math.floor(from),
    to: Math.ceil(to),
    points,
  });
  if (!result.success) return { ok: false, status: result.status, error: result.error };
  return { ok: true, data: result.data };
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
