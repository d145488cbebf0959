import type { Room } from '@hearth/contracts';
import { binaryLabel } from '../../devices/model/binary.js';
import { binaryReadings } from '../../devices/model/controls.js';
import type { DeviceView } from '../../devices/model/device.types.js';
import { humanise } from '../../devices/model/format.js';
import { climateReading, deviceMetrics } from '../../devices/model/metrics.js';
import { ROOM_ACTION_TYPES } from '../../rooms/room-actions.js';

/** What a favourite card shows instead of a power switch: one reading of the device. */
export interface MainValue {
  property: string;
  label: string;
  value: string;
  unit: string;
}

/** Metrics a card prefers as its main value, in this order; radio and battery figures never lead. */
const PREFERRED = ['temperature', 'humidity', 'power', 'illuminance', 'co2', 'pm25', 'pressure'];
const NEVER_MAIN = new Set(['linkquality', 'battery', 'voltage', 'last_seen']);

/**
 * docs/screens.md#favourites: a device without a power switch shows its first binary reading
 * (a door's "Open"), else its first preferred metric, else its first other metric; null when the
 * state holds none.
 */
export function mainValue(device: DeviceView): MainValue | null {
  const reading = binaryReadings(device)[0];
  if (reading) {
    return {
      property: reading.property,
      label: humanise(reading.property),
      value: binaryLabel(reading.property, reading.value),
      unit: '',
    };
  }
  const metrics = deviceMetrics(device).filter((metric) => !NEVER_MAIN.has(metric.property));
  const preferred = PREFERRED.map((property) => metrics.find((metric) => metric.property === property)).find(
    Boolean,
  );
  return preferred ?? metrics[0] ?? null;
}

/** docs/screens.md#room-cards: what a room card shows of its devices. */
export interface RoomSummary {
  /** Lights and switches that are on. */
  on: number;
  /** Mean of the room's temperature readings (°C), one decimal; null without any. */
  temperature: number | null;
  /** Mean of the room's humidity readings (%), whole; null without any. */
  humidity: number | null;
}

const mean = (values: number[], digits: number) =>
  values.length === 0
    ? null
    : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10 ** digits) /
      10 ** digits;

/** One summary per room id (every room, even an empty one), from every device the page holds. */
export function summariseRooms(devices: Iterable<DeviceView>, rooms: Room[]): Map<string, RoomSummary> {
  const gathered = new Map(
    rooms.map((room) => [room.id, { on: 0, temperatures: [] as number[], humidities: [] as number[] }]),
  );
  for (const device of devices) {
    const room = device.roomId === null ? undefined : gathered.get(device.roomId);
    if (!room) continue;
    if ((ROOM_ACTION_TYPES as readonly string[]).includes(device.type ?? '') && device.toggleState === true)
      room.on++;
    if (!device.online) continue;
    const temperature = climateReading(device, 'temperature');
    const humidity = climateReading(device, 'humidity');
    if (temperature !== null) room.temperatures.push(temperature);
    if (humidity !== null) room.humidities.push(humidity);
  }
  return new Map(
    [...gathered].map(([id, room]) => [
      id,
      { on: room.on, temperature: mean(room.temperatures, 1), humidity: mean(room.humidities, 0) },
    ]),
  );
}
