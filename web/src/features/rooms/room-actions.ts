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
  /** Answered so far, failed ones included. */
  done: number;
  failed: { device: DeviceView; error: string }[];
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

/** docs/strings.md#rooms-on-the-devices-page: the summary line once a room action finished. */
export function roomActionSummary(progress: RoomActionProgress, on: boolean): string {
  const verb = on ? 'on' : 'off';
  if (progress.total === 0) return 'No lights or switches in this room';
  const ok = progress.total - progress.failed.length;
  if (progress.failed.length === 0) return `Turned ${verb} ${ok} of ${progress.total}`;
  const names = progress.failed.map((failure) => failure.device.displayName).join(', ');
  return `Turned ${verb} ${ok} of ${progress.total}; failed: ${names}`;
}
