import type {
  BinaryExpose,
  CompositeExpose,
  EnumExpose,
  Expose,
  NumericExpose,
  SpecificExpose,
  SpecificType,
} from '../adapters/zigbee2mqtt/z2m.types.js';

/** Builders for exposes in Zigbee2MQTT's own format (as its converters generate them). */
const STATE = 1;
const ALL = 7;
const label = (name: string) => {
  const spaced = name.replace(/_/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

export const binary = (
  name: string,
  access = STATE,
  on: unknown = true,
  off: unknown = false,
  extra = {},
): BinaryExpose => ({
  type: 'binary',
  name,
  label: label(name),
  property: name,
  access,
  value_on: on,
  value_off: off,
  ...extra,
});

export const numeric = (
  name: string,
  unit?: string,
  access = STATE,
  range: Partial<NumericExpose> = {},
): NumericExpose => ({
  type: 'numeric',
  name,
  label: label(name),
  property: name,
  access,
  ...(unit ? { unit } : {}),
  ...range,
});

export const enumeration = (name: string, values: string[], access = STATE): EnumExpose => ({
  type: 'enum',
  name,
  label: label(name),
  property: name,
  access,
  values,
});

const withEndpoint = <T extends Expose>(expose: T, endpoint?: string): T =>
  endpoint ? { ...expose, endpoint, property: `${expose.property}_${endpoint}` } : expose;

export const specific = (type: SpecificType, features: Expose[], endpoint?: string): SpecificExpose => ({
  type,
  features: features.map((f) => withEndpoint(f, endpoint)),
  ...(endpoint ? { endpoint } : {}),
});

export const onOff = (endpoint?: string) =>
  withEndpoint(binary('state', ALL, 'ON', 'OFF', { value_toggle: 'TOGGLE', label: 'State' }), endpoint);

export const color = (kind: 'color_xy' | 'color_hs'): CompositeExpose => ({
  type: 'composite',
  name: kind,
  label: kind === 'color_xy' ? 'Color (X/Y)' : 'Color (HS)',
  property: 'color',
  access: ALL,
  features:
    kind === 'color_xy'
      ? [numeric('x', undefined, ALL), numeric('y', undefined, ALL)]
      : [numeric('hue', undefined, ALL), numeric('saturation', undefined, ALL)],
});

export const light = (options: { colorTemp?: boolean; color?: boolean } = {}): SpecificExpose =>
  specific('light', [
    onOff(),
    numeric('brightness', undefined, ALL, { value_min: 0, value_max: 254 }),
    ...(options.colorTemp
      ? [
          numeric('color_temp', 'mired', ALL, {
            value_min: 150,
            value_max: 500,
            presets: [{ name: 'warm', value: 454 }],
          }),
        ]
      : []),
    ...(options.color ? [color('color_xy'), color('color_hs')] : []),
  ]);

export const lightEffect = () =>
  enumeration('effect', ['blink', 'breathe', 'okay', 'channel_change', 'finish_effect', 'stop_effect'], 2);

export const battery = () => numeric('battery', '%', 5, { value_min: 0, value_max: 100 });
export const linkquality = () => numeric('linkquality', 'lqi', STATE, { value_min: 0, value_max: 255 });
export const temperature = () => numeric('temperature', '°C');
export const humidity = () => numeric('humidity', '%');
export const voltage = () => numeric('voltage', 'mV');
export { ALL, STATE };
