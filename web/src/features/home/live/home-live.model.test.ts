import type { Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../devices/model/device.types.js';
import { deviceFrom } from '../../devices/model/test-devices.js';
import { mainValue, summariseRooms } from './home-live.model.js';

const device = (id: string, extra: Json) => deviceFrom({ id, name: id, online: true, ...extra });
const room = (id: string): Room => ({ id, name: id, icon: 'house', order: 0, floor_id: null });

describe('mainValue', () => {
  it.each<[string, Json, string | null]>([
    ['a door shows its contact', { state: { contact: false, battery: 90, linkquality: 80 } }, 'Open'],
    [
      'a climate sensor its temperature',
      { state: { linkquality: 80, humidity: 48, temperature: 21.5 } },
      '21.5',
    ],
    ['a humidity sensor its humidity', { state: { battery: 90, humidity: 48 } }, '48'],
    ['a plug its power', { state: { energy: 3, power: 12 } }, '12'],
    ['radio and battery figures never lead', { state: { linkquality: 80, battery: 90 } }, null],
    ['nothing without a state', { state: {} }, null],
  ])('%s', (_name, extra, value) => {
    expect(mainValue(device('d', extra))?.value ?? null).toBe(value);
  });

  it('gives the unit of a numeric reading', () => {
    expect(mainValue(device('d', { state: { temperature: 21 } }))).toMatchObject({
      label: 'Temperature',
      unit: '°C',
    });
  });
});

describe('summariseRooms of other sources', () => {
  it("reads a Home Assistant sensor's temperature by its device class, a climate's current one, and a composite light's power", () => {
    const sensor = (id: string, property: string, value: number, deviceClass: string) =>
      device(id, {
        type: 'sensor',
        protocol: 'homeassistant',
        room_id: 'den',
        state: { [property]: value },
        capabilities: [
          {
            id: property,
            property,
            kind: 'numeric',
            access: { readOnly: true },
            metadata: { device_class: deviceClass },
          },
        ],
      });
    const devices = [
      sensor('probe', 'den_probe_temperature', 19, 'temperature'),
      sensor('meter', 'den_meter_humidity', 51, 'humidity'),
      device('hvac', {
        type: 'climate',
        protocol: 'homeassistant',
        room_id: 'den',
        state: { thermostat: { mode: 'heat', current_temperature: 21 } },
        capabilities: [
          {
            id: 'thermostat',
            property: 'thermostat',
            kind: 'composite',
            access: { readOnly: false, write: true },
          },
        ],
      }),
      device('lamp', {
        type: 'light',
        protocol: 'homeassistant',
        room_id: 'den',
        state: { light: { state: true, brightness: 80 } },
        capabilities: [
          {
            id: 'light',
            property: 'light',
            kind: 'composite',
            access: { readOnly: false, write: true },
            features: [
              { id: 'state', property: 'state', kind: 'binary', access: { readOnly: false, write: true } },
            ],
          },
        ],
      }),
    ];
    expect(summariseRooms(devices, [room('den')]).get('den')).toEqual({
      on: 1,
      temperature: 20,
      humidity: 51,
    });
  });
});

describe('summariseRooms', () => {
  const devices = [
    device('lamp-on', { type: 'light', room_id: 'kitchen', state: { state: 'ON' } }),
    device('lamp-off', { type: 'light', room_id: 'kitchen', state: { state: 'OFF' } }),
    device('plug-on', { type: 'switch', room_id: 'kitchen', state: { state: 'ON' } }),
    device('lock-on', { type: 'lock', room_id: 'kitchen', state: { state: 'ON' } }),
    device('climate-1', { type: 'sensor', room_id: 'kitchen', state: { temperature: 20, humidity: 40 } }),
    device('climate-2', { type: 'sensor', room_id: 'kitchen', state: { temperature: 21.25, humidity: 45 } }),
    device('stale', { type: 'sensor', room_id: 'kitchen', online: false, state: { temperature: 35 } }),
    device('hall-lamp', { type: 'light', room_id: 'hall', state: { state: 'ON' } }),
    device('loose-lamp', { type: 'light', room_id: null, state: { state: 'ON' } }),
    device('gone-room', { type: 'light', room_id: 'garage', state: { state: 'ON' } }),
  ];
  const summaries = summariseRooms(devices, [room('kitchen'), room('hall'), room('attic')]);

  it.each([
    ['kitchen', { on: 2, temperature: 20.6, humidity: 43 }],
    ['hall', { on: 1, temperature: null, humidity: null }],
    ['attic', { on: 0, temperature: null, humidity: null }],
  ])('%s → %j', (id, summary) => {
    expect(summaries.get(id)).toEqual(summary);
  });

  it('has no summary for a room it was not given', () => {
    expect(summaries.has('garage')).toBe(false);
  });
});
