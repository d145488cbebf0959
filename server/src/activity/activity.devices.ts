import type { Device } from '@hearth/contracts';
import { type ActivityLog, SYSTEM_ACTOR } from './activity.log.js';

/** The device hub's updates the log listens to (its `DeviceListener`, as far as used here). */
export interface DeviceEventListener {
  /** `first`: the first availability this instance heard of the device since it started. */
  onlineChanged?(device: Device, online: boolean, first?: boolean): void;
  deviceJoined?(device: Device): void;
  deviceLeft?(device: Device): void;
}

/** The device hub as the activity log sees it. */
export interface DeviceEvents {
  listen(listener: DeviceEventListener): () => void;
  /** Whether this instance writes device state (of instances sharing a database, one does). */
  writes(): boolean;
}

const about = (device: Device) => ({
  device_id: device.id,
  ...(device.room_id ? { room_id: device.room_id } : {}),
  detail: { name: device.name },
});

/**
 * docs/activity.md#kinds: joined, left, went offline, came back — as Hearth (actor
 * `system`), recorded by the instance that writes device state so several instances on one
 * database note each event once. Availability replayed at a start is not an event.
 */
export function deviceEventRecorder(log: ActivityLog, writes: () => boolean): DeviceEventListener {
  return {
    onlineChanged(device, online, first) {
      if (first || !writes()) return;
      log.record({
        actor: SYSTEM_ACTOR,
        kind: online ? 'device.back' : 'device.offline',
        result: 'ok',
        ...about(device),
      });
    },
    deviceJoined(device) {
      if (!writes()) return;
      log.record({ actor: SYSTEM_ACTOR, kind: 'device.joined', result: 'ok', ...about(device) });
    },
    deviceLeft(device) {
      if (!writes()) return;
      log.record({ actor: SYSTEM_ACTOR, kind: 'device.left', result: 'ok', ...about(device) });
    },
  };
}
