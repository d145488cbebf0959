import type {
  DeviceBulkCommand,
  DeviceBulkCommandAnswer,
  DeviceBulkCommandRequest,
  DeviceCallResult,
} from '@hearth/contracts';
import { type ApiResult, api } from '../../../shared/api/client.js';
import { MESSAGES, requestFailed } from '../devices.messages.js';
import type { DeviceCommand } from '../model/commands.js';
import type { Json } from '../model/device.types.js';
import { devicesByIdsPath } from './devices.paths.js';

/** docs/api.md#devices answer of the rename and command calls. */
export interface HubAnswer {
  success?: boolean;
  data?: unknown;
  error?: string;
}

export type DeviceListResult = { ok: true; devices: Json[] } | { ok: false; reason: string };

/**
 * GET /api/devicehub/devices (with `first`: only the first devices in the page's order): a
 * non-array answer or a failed status is an error (docs/strings.md#devices).
 */
export async function fetchDevices(first?: number): Promise<DeviceListResult> {
  const result = await api.get<unknown>(
    first === undefined ? '/api/devicehub/devices' : `/api/devicehub/devices?first=${first}`,
  );
  if (!result.success)
    return {
      ok: false,
      reason: result.status ? requestFailed(result.status) : (result.error ?? MESSAGES.listFailed),
    };
  if (!Array.isArray(result.data)) return { ok: false, reason: MESSAGES.invalidList };
  return {
    ok: true,
    devices: result.data.filter((item): item is Json => typeof item === 'object' && item !== null),
  };
}

/** GET /api/devicehub/devices?ids=…: these devices (the first BY_IDS_LIMIT), read like the list. */
export async function fetchDevicesByIds(ids: string[]): Promise<DeviceListResult> {
  const result = await api.get<unknown>(devicesByIdsPath(ids));
  if (!result.success) return { ok: false, reason: result.error ?? MESSAGES.listFailed };
  if (!Array.isArray(result.data)) return { ok: false, reason: MESSAGES.invalidList };
  return {
    ok: true,
    devices: result.data.filter((item): item is Json => typeof item === 'object' && item !== null),
  };
}

export const renameDevice = (id: string, name: string): Promise<ApiResult<HubAnswer>> =>
  api.patch<HubAnswer>(`/api/devicehub/devices/${encodeURIComponent(id)}`, { name });

export const postCommand = (id: string, command: DeviceCommand): Promise<ApiResult<HubAnswer>> =>
  api.post<HubAnswer>(`/api/devicehub/devices/${encodeURIComponent(id)}/commands`, command);

/** POST /api/devicehub/commands: several devices at once, each confirmed by its state (docs/devicehub.md#commands-to-several-devices). */
export const postBulkCommands = (commands: DeviceBulkCommand[]) =>
  api.post<DeviceCallResult<DeviceBulkCommandAnswer>>('/api/devicehub/commands', {
    commands,
  } satisfies DeviceBulkCommandRequest);

/** The server's error from `{success:false, error}` or the wrapper, else the fallback. */
export function answerError(result: ApiResult<HubAnswer>, fallback: string): string | null {
  if (result.success && result.data?.success !== false) return null;
  return result.data?.error || result.error || fallback;
}
