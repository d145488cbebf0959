import type { Expose } from '../adapters/zigbee2mqtt/z2m.types.js';
import {
  ALL,
  battery,
  binary,
  enumeration,
  humidity,
  light,
  lightEffect,
  linkquality,
  numeric,
  onOff,
  specific,
  temperature,
  voltage,
} from './expose-builders.js';

/** A kind of virtual device: its definition, exposes and first state. */
export interface DeviceTemplate {
  name: string;
  vendor: string;
  model: string;
  description: string;
  type: 'Router' | 'EndDevice';
  exposes: Expose[];
  state: Record<string, unknown>;
}

/** A device of this Zigbee type (an end device sleeps; a router is mains powered and relays). */
const device =
  (type: 'EndDevice' | 'Router', signal: number) =>
  (
    name: string,
    vendor: string,
    model: string,
    description: string,
    exposes: Expose[],
    state: Record<string, unknown>,
  ): DeviceTemplate => ({
    name,
    vendor,
    model,
    description,
    type,
    exposes: [...exposes, linkquality()],
    state: { linkquality: signal, ...state },
  });

const sensor = device('EndDevice', 120);
const router = device('Router', 180);

/**
 * The simulator's household: every icon and binary label of docs/screens.md#devices-page and docs/strings.md#constants-and-limits. Devices beyond
 * this list repeat it with a number after the name.
 */
export const TEMPLATES: DeviceTemplate[] = [
  sensor(
    'Front door',
    'Aqara',
    'MCCGQ11LM',
    'Door and window contact sensor',
    [binary('contact'), battery(), voltage()],
    { contact: true, battery: 91, voltage: 3005 },
  ),
  sensor(
    'Patio window',
    'SONOFF',
    'SNZB-04',
    'Contact sensor',
    [binary('contact'), binary('battery_low'), binary('tamper')],
    { contact: false, battery_low: false, tamper: false },
  ),
  router(
    'Hallway lamp',
    'IKEA',
    'LED1836G9',
    'TRADFRI bulb E27, white, 806 lumen, dimmable',
    [light(), lightEffect()],
    { state: 'ON', brightness: 160 },
  ),
  router(
    'Living room lamp',
    'Philips',
    '9290022166',
    'Hue white and color ambiance E26/E27',
    [light({ colorTemp: true, color: true }), lightEffect()],
    { state: 'OFF', brightness: 200, color_temp: 370, color_mode: 'xy', color: { x: 0.46, y: 0.41 } },
  ),
  router(
    'Bedroom ceiling light',
    'IKEA',
    'LED1545G12',
    'TRADFRI bulb E27, white spectrum, globe, opal, 980 lm',
    [light({ colorTemp: true }), lightEffect()],
    { state: 'ON', brightness: 90, color_temp: 420 },
  ),
  router(
    'Kitchen LED strip',
    'Gledopto',
    'GL-C-008',
    'Zigbee LED controller RGB + CCT',
    [
      light({ colorTemp: true, color: true }),
      enumeration('effect', ['blink', 'breathe', 'okay', 'colorloop', 'stop_colorloop'], 2),
    ],
    { state: 'ON', brightness: 254, color: { x: 0.3, y: 0.6 } },
  ),
  router(
    'Coffee machine plug',
    'Xiaomi',
    'ZNCZ04LM',
    'Mi power plug ZigBee EU',
    [
      specific('switch', [onOff()]),
      numeric('power', 'W'),
      numeric('energy', 'kWh'),
      numeric('voltage', 'V'),
      numeric('current', 'A'),
    ],
    { state: 'ON', power: 4.2, energy: 12.37, voltage: 230.4, current: 0.02 },
  ),
  router(
    'Stairs wall switch',
    'TuYa',
    'TS0012',
    'Smart light switch - 2 gang',
    [specific('switch', [onOff()], 'l1'), specific('switch', [onOff()], 'l2')],
    { state_l1: 'ON', state_l2: 'OFF' },
  ),
  router(
    'Living room thermostat',
    'Sinopé',
    'TH1123ZB',
    'Zigbee line volt thermostat',
    [
      specific('climate', [
        numeric('occupied_heating_setpoint', '°C', ALL, { value_min: 5, value_max: 30, value_step: 0.5 }),
        numeric('local_temperature', '°C', 5),
        enumeration('system_mode', ['off', 'heat'], ALL),
        enumeration('running_state', ['idle', 'heat'], 5),
      ]),
    ],
    { occupied_heating_setpoint: 21, local_temperature: 20.4, system_mode: 'heat', running_state: 'heat' },
  ),
  sensor(
    'Bathroom radiator valve',
    'Danfoss',
    '014G2461',
    'Ally thermostat (TRV) heating',
    [
      specific('climate', [
        numeric('occupied_heating_setpoint', '°C', ALL, { value_min: 5, value_max: 35, value_step: 0.5 }),
        numeric('local_temperature', '°C', 5),
        enumeration('system_mode', ['heat'], 5),
      ]),
      numeric('pi_heating_demand', '%'),
      binary('window_open_external', ALL),
      battery(),
    ],
    {
      occupied_heating_setpoint: 22,
      local_temperature: 21.1,
      system_mode: 'heat',
      pi_heating_demand: 35,
      window_open_external: false,
      battery: 78,
    },
  ),
  sensor(
    'Bedroom climate',
    'Aqara',
    'WSDCGQ11LM',
    'Temperature, humidity and pressure sensor',
    [temperature(), humidity(), numeric('pressure', 'hPa'), battery(), voltage()],
    { temperature: 20.8, humidity: 48.2, pressure: 1012.5, battery: 88, voltage: 2985 },
  ),
  sensor(
    'Bathroom humidity',
    'TuYa',
    'TS0201_H',
    'Humidity sensor for the bathroom',
    [humidity(), battery()],
    { humidity: 61.4, battery: 95 },
  ),
  sensor(
    'Hallway motion',
    'Philips',
    '9290012607',
    'Hue motion sensor',
    [binary('occupancy'), numeric('illuminance_lux', 'lx'), temperature(), battery()],
    { occupancy: false, illuminance_lux: 120, temperature: 19.6, battery: 64 },
  ),
  sensor(
    'Office presence',
    'Aqara',
    'RTCZCGQ11LM',
    'Presence sensor FP1',
    [
      binary('presence'),
      enumeration('presence_event', ['enter', 'leave', 'left_enter', 'right_leave', 'away']),
    ],
    { presence: true, presence_event: 'enter' },
  ),
  sensor(
    'Kitchen leak sensor',
    'Aqara',
    'SJCGQ11LM',
    'Water leak sensor',
    [binary('water_leak'), binary('battery_low'), battery()],
    { water_leak: false, battery_low: false, battery: 83 },
  ),
  sensor(
    'Hallway smoke alarm',
    'HEIMAN',
    'HS1SA',
    'Smoke detector',
    [binary('smoke'), binary('battery_low'), binary('tamper'), battery()],
    { smoke: false, battery_low: false, tamper: false, battery: 97 },
  ),
  sensor(
    'Washing machine vibration',
    'Aqara',
    'DJT11LM',
    'Vibration sensor',
    [
      binary('vibration'),
      numeric('strength'),
      enumeration('action', ['vibration', 'tilt', 'drop']),
      battery(),
    ],
    { vibration: false, strength: 3, battery: 58 },
  ),
  sensor(
    'Shed door',
    'TuYa',
    'TS0203',
    'Door sensor',
    [binary('contact'), binary('battery_low'), binary('tamper'), battery()],
    { contact: true, battery_low: true, tamper: false, battery: 9 },
  ),
  sensor(
    'Bedroom blind',
    'IKEA',
    'E1757',
    'FYRTUR roller blind',
    [
      specific('cover', [
        enumeration('state', ['OPEN', 'CLOSE', 'STOP'], 3),
        numeric('position', '%', ALL, { value_min: 0, value_max: 100 }),
      ]),
      battery(),
    ],
    { state: 'OPEN', position: 100, battery: 69 },
  ),
  router(
    'Front door lock',
    'Yale',
    'YRD226HA2619',
    'Assure lock',
    [
      specific('lock', [
        binary('state', ALL, 'LOCK', 'UNLOCK', { label: 'State' }),
        enumeration('lock_state', ['not_fully_locked', 'locked', 'unlocked']),
      ]),
      battery(),
    ],
    { state: 'LOCK', lock_state: 'locked', battery: 82 },
  ),
  sensor(
    'Living room air quality',
    'Aqara',
    'VOCKQJK11LM',
    'TVOC air quality monitor',
    [
      numeric('voc', 'ppb'),
      temperature(),
      humidity(),
      enumeration('air_quality', ['excellent', 'good', 'moderate', 'poor', 'unhealthy']),
      battery(),
    ],
    { voc: 180, temperature: 21.5, humidity: 45.3, air_quality: 'good', battery: 90 },
  ),
  sensor(
    'Living room remote',
    'IKEA',
    'E1524/E1810',
    'TRADFRI remote control',
    [
      enumeration('action', [
        'toggle',
        'brightness_up_click',
        'brightness_down_click',
        'arrow_left_click',
        'arrow_right_click',
      ]),
      battery(),
    ],
    { battery: 74 },
  ),
  router(
    'Bedroom air purifier',
    'IKEA',
    'E2007',
    'STARKVIND air purifier',
    [
      specific('fan', [
        binary('fan_state', ALL, 'ON', 'OFF', { property: 'fan_state' }),
        enumeration('fan_mode', ['off', 'auto', '1', '2', '3', '4', '5'], ALL),
      ]),
      numeric('pm25', 'µg/m³'),
      binary('child_lock', ALL, 'LOCK', 'UNLOCK'),
    ],
    { fan_state: 'ON', fan_mode: 'auto', pm25: 6, child_lock: 'UNLOCK' },
  ),
  sensor(
    'Mains voltage monitor',
    'TuYa',
    'TS0601_din',
    'DIN rail voltage monitor',
    [numeric('voltage', 'V'), numeric('frequency', 'Hz')],
    { voltage: 230.1, frequency: 50 },
  ),
];
