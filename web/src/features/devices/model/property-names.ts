import { humanise } from './format.js';

/**
 * docs/strings.md#property-names: what a household calls a device's properties. Zigbee2MQTT and
 * Home Assistant name them as engineers do (`occupied_heating_setpoint`, `pi_heating_demand`,
 * `pm25`); a property listed here is shown by this name on the tiles, the favourite cards and the
 * guest page, whatever the device calls it. Keep it sorted; add a property when a device shows an
 * engineer's word (Home Assistant's own entity names are the model where it has one).
 */
export const PROPERTY_NAMES: Readonly<Record<string, string>> = {
  air_quality: 'Air quality',
  away_preset_temperature: 'Away temperature',
  battery: 'Battery',
  battery_level: 'Battery',
  battery_low: 'Battery low',
  brightness: 'Brightness',
  child_lock: 'Child lock',
  co2: 'CO₂',
  color_temp: 'Color temperature',
  color_temp_kelvin: 'Color temperature',
  color_temp_startup: 'Color temperature at power on',
  comfort_temperature: 'Comfort temperature',
  current: 'Current',
  current_heating_setpoint: 'Target temperature',
  current_humidity: 'Current humidity',
  current_temperature: 'Current temperature',
  device_temperature: 'Device temperature',
  eco2: 'eCO₂',
  eco_temperature: 'Eco temperature',
  energy: 'Energy',
  fan_mode: 'Fan speed',
  fan_speed: 'Fan speed',
  fan_state: 'Fan',
  formaldehyd: 'Formaldehyde',
  hcho: 'Formaldehyde',
  humidity: 'Humidity',
  illuminance: 'Illuminance',
  illuminance_lux: 'Illuminance',
  linkquality: 'Link quality',
  local_temperature: 'Current temperature',
  local_temperature_calibration: 'Temperature offset',
  occupied_cooling_setpoint: 'Target cooling temperature',
  occupied_heating_setpoint: 'Target temperature',
  oscillating: 'Oscillation',
  percentage: 'Speed',
  pi_heating_demand: 'Heating demand',
  pm1: 'PM1',
  pm10: 'PM10',
  pm25: 'PM2.5',
  position: 'Position',
  power: 'Power',
  power_on_behavior: 'At power on',
  preset_mode: 'Preset',
  pressure: 'Pressure',
  running_state: 'Running',
  soil_moisture: 'Soil moisture',
  swing_horizontal_mode: 'Horizontal swing',
  swing_mode: 'Swing',
  system_mode: 'Mode',
  target_humidity: 'Target humidity',
  target_temperature: 'Target temperature',
  temperature: 'Temperature',
  tilt: 'Tilt',
  unoccupied_heating_setpoint: 'Away target temperature',
  voc: 'VOC',
  voc_index: 'VOC index',
  voltage: 'Voltage',
  volume_level: 'Volume',
  water_leak: 'Water leak',
  window_open_external: 'Window open',
};

/** Endpoint names that are words already: `left` → "Left", `usb` → "USB". */
const NAMED_ENDPOINTS: Readonly<Record<string, string>> = {
  bottom: 'Bottom',
  center: 'Center',
  centre: 'Centre',
  left: 'Left',
  middle: 'Middle',
  right: 'Right',
  top: 'Top',
  usb: 'USB',
};

/** A numbered endpoint: `l1`, `ep2`, `3`, `socket_4`, `relay1`… */
const NUMBERED =
  /^(?:l|ep|endpoint|s|socket|outlet|out|channel|ch|relay|switch|button|gang)?[_-]?(\d{1,2})$/i;

/**
 * How a device's numbered endpoints are called, from what its description says: "Left" and
 * "Right" for two that its description calls left and right, "Socket N" on a power strip or a
 * plug with several sockets, else "Channel N".
 */
export type EndpointNaming = (endpoint: string) => string;

export function endpointNaming(description: string | null | undefined, endpoints: number): EndpointNaming {
  const words = (description ?? '').toLowerCase();
  const leftRight = endpoints === 2 && /\bleft\b/.test(words) && /\bright\b/.test(words);
  const sockets = /\b(socket|sockets|outlet|outlets|power strip|strip|plug)\b/.test(words);
  return (endpoint) => {
    const named = NAMED_ENDPOINTS[endpoint.toLowerCase()];
    if (named) return named;
    const number = NUMBERED.exec(endpoint)?.[1];
    if (number === undefined) return humanise(endpoint);
    const n = Number(number);
    if (leftRight && (n === 1 || n === 2)) return n === 1 ? 'Left' : 'Right';
    return `${sockets ? 'Socket' : 'Channel'} ${n}`;
  };
}

/** The device's own label without the endpoint it appends ("State (l1)" → "State"). */
const withoutEndpoint = (label: string, endpoint: string) =>
  label.replace(new RegExp(`\\s*\\(${endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`, 'i'), '');

/** Power parts of an endpoint are named by the endpoint alone: "Left", "Channel 1". */
const POWER = new Set(['state', 'on']);

/**
 * A property's name for people: the table's, else the device's own label (without its endpoint),
 * else the property humanised; a property of one endpoint adds the endpoint's name
 * ("Brightness (Left)"), and an endpoint's power is just its name ("Channel 1").
 */
export function propertyName(
  property: string,
  options: { label?: string | undefined; endpoint?: string | undefined; naming?: EndpointNaming } = {},
): string {
  const { label, endpoint } = options;
  const suffix = endpoint ? `_${endpoint}` : '';
  const base =
    suffix && property.toLowerCase().endsWith(suffix.toLowerCase())
      ? property.slice(0, -suffix.length)
      : property;
  const own = label && endpoint ? withoutEndpoint(label, endpoint) : label;
  const name = PROPERTY_NAMES[base.toLowerCase()] ?? (own || humanise(base));
  if (!endpoint) return name;
  const where = (options.naming ?? endpointNaming(null, 0))(endpoint);
  return POWER.has(base.toLowerCase()) ? where : `${name} (${where})`;
}
