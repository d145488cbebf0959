import type { DeviceBulkCommandAnswer } from '@hearth/contracts';
import type { DeviceCommand } from '../devices/model/commands.js';
import { buildCommand } from '../devices/model/commands.js';
import { deviceControls, splitControls } from '../devices/model/controls.js';
import type { DeviceView } from '../devices/model/device.types.js';

/** The device types a room's "All off" / "All on" switches (docs/devicehub.md#device `type`). */
export const ROOM_ACTION_TYPES = ['light', 'switch'] as const;

export interface PlannedCommand {
  device: DeviceView;
  command: DeviceCommand;
}

/**
 * One command per light or switch of the room that has a power toggle, each to `on`. Devices
 * already in that state are sent it too (a stale state should not keep a lamp on); devices of
 * other types (locks, covers…) and devices the viewer may only view (docs/access.md) are never touched.
 */
export function planRoomAction(devices: Iterable<DeviceView>, roomId: string, on: boolean): PlannedCommand[] {
  const plan: PlannedCommand[] = [];
  for (const device of devices) {
    if (device.roomId !== roomId || !device.id || device.access === 'view') continue;
    if (!(ROOM_ACTION_TYPES as readonly string[]).includes(device.type ?? '')) continue;
    const { power } = splitControls(deviceControls(device));
    const command = power && buildCommand(power, on);
    if (command) plan.push({ device, command });
  }
  return plan;
}

export interface RoomActionProgress {
  total: number;
  /** Answered (or, sent together, confirmed) so far. */
  done: number;
  /** Refused, or not sent (the bus away): with the reason. */
  failed: { device: DeviceView; error: string }[];
  /** Sent, but their state did not confirm it in time (docs/devicehub.md#commands-to-several-devices). */
  notResponding?: DeviceView[];
  /** Not sent: offline. */
  offline?: DeviceView[];
}

/** Sends the whole plan at once; resolves with the server's answer or the failure's message. */
export type BulkSendFn = (
  plan: PlannedCommand[],
  /** A device of the plan whose state confirmed its command (before the answer comes). */
  onConfirmed: (device: DeviceView) => void,
) => Promise<DeviceBulkCommandAnswer | string>;

/**
 * docs/screens.md#room-actions: sends the plan in one call (`POST /api/devicehub/commands`) and
 * counts a device as done only when its state confirms it; the ones that did not, or were
 * offline (not sent), are named in the summary. Progress follows the confirmations as they come.
 */
export async function runConfirmedRoomAction(
  plan: PlannedCommand[],
  send: BulkSendFn,
  onProgress: (progress: RoomActionProgress) => void = () => {},
): Promise<RoomActionProgress> {
  const total = plan.length;
  const confirmed = new Set<DeviceView>();
  onProgress({ total, done: 0, failed: [] });
  if (total === 0) return { total, done: 0, failed: [] };
  const answer = await send(plan, (device) => {
    if (confirmed.has(device)) return;
    confirmed.add(device);
    onProgress({ total, done: confirmed.size, failed: [] });
  });
  if (typeof answer === 'string') {
    return { total, done: 0, failed: plan.map(({ device }) => ({ device, error: answer })) };
  }
  const progress: Required<RoomActionProgress> = {
    total,
    done: 0,
    failed: [],
    notResponding: [],
    offline: [],
  };
  answer.results.forEach((result, index) => {
    const device = plan[index]?.device;
    if (!device) return;
    if (result.outcome === 'confirmed') progress.done++;
    else if (result.outcome === 'not_responding') progress.notResponding.push(device);
    else if (result.outcome === 'offline') progress.offline.push(device);
    else progress.failed.push({ device, error: result.error ?? result.outcome });
  });
  onProgress(progress);
  return progress;
}

/** Sends a command; resolves with the error message, or null when it was accepted. */
export type SendFn = (device: DeviceView, command: DeviceCommand) => Promise<string | null>;

/**
 * Sends the plan, `concurrency` commands at a time, reporting progress after each answer; a send
 * that throws counts as failed with its message. Resolves with the final progress (the summary).
 */
export async function runRoomAction(
  plan: PlannedCommand[],
  send: SendFn,
  onProgress: (progress: RoomActionProgress) => void = () => {},
  concurrency = 8,
): Promise<RoomActionProgress> {
  let progress: RoomActionProgress = { total: plan.length, done: 0, failed: [] };
  onProgress(progress);
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const item = plan[next++] as PlannedCommand;
      let error: string | null;
      try {
        error = await send(item.device, item.command);
      } catch (thrown) {
        error = (thrown as Error)?.message || 'Command failed';
      }
      progress = {
        total: progress.total,
        done: progress.done + 1,
        failed: error ? [...progress.failed, { device: item.device, error }] : progress.failed,
      };
      onProgress(progress);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, plan.length) }, worker));
  return progress;
}

const names = (devices: DeviceView[]) => devices.map((device) => device.displayName).join(', ');

/**
 * docs/strings.md#rooms-on-the-devices-page: the summary line once a room action finished:
 * "Turned off 4 of 6 — 1 not responding: Desk lamp; 1 offline: Porch lamp", failures last.
 */
export function roomActionSummary(progress: RoomActionProgress, on: boolean): string {
  const verb = on ? 'on' : 'off';
  if (progress.total === 0) return 'No lights or switches in this room';
  const silent = progress.notResponding ?? [];
  const offline = progress.offline ?? [];
  const ok = progress.total - progress.failed.length - silent.length - offline.length;
  const missing = [
    silent.length > 0 && `${silent.length} not responding: ${names(silent)}`,
    offline.length > 0 && `${offline.length} offline: ${names(offline)}`,
  ].filter(Boolean);
  const failed = progress.failed.map((failure) => failure.device);
  return [
    `Turned ${verb} ${ok} of ${progress.total}`,
    missing.length > 0 ? ` — ${missing.join('; ')}` : '',
    failed.length > 0 ? `; failed: ${names(failed)}` : '',
  ].join('');
}

/** Whether the summary tells of devices that did not do it (shown in the danger tone). */
export const roomActionFell = (progress: RoomActionProgress) =>
  progress.failed.length + (progress.notResponding?.length ?? 0) + (progress.offline?.length ?? 0) > 0;
