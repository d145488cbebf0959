import type { DeviceView } from './device.types.js';

/** docs/screens.md#devices-page icon rules, in their order: the first group whose word appears wins. */
export type DeviceIconKind =
  | 'door'
  | 'light'
  | 'plug'
  | 'thermometer'
  | 'humidity'
  | 'battery'
  | 'voltage'
  | 'device';

const RULES: [DeviceIconKind, string[]][] = [
  ['door', ['door', 'contact']],
  ['light', ['light', 'lamp', 'brightness', 'color']],
  ['plug', ['plug', 'socket', 'outlet', 'power']],
  ['thermometer', ['thermo', 'heating', 'temperature']],
  ['humidity', ['humidity']],
  ['battery', ['battery']],
  ['voltage', ['voltage']],
];

type IconSource = Pick<
  DeviceView,
  'capabilities' | 'type' | 'description' | 'model' | 'name' | 'manufacturer'
>;

export function deviceIconKind(device: IconSource): DeviceIconKind {
  const words = [
    ...device.capabilities.flatMap((capability) => [capability.id, capability.property, capability.name]),
    device.type,
    device.description,
    device.model,
    device.name,
    device.manufacturer,
  ]
    .filter((word): word is string => typeof word === 'string')
    .join(' ')
    .toLowerCase();
  for (const [kind, needles] of RULES) {
    if (needles.some((needle) => words.includes(needle))) return kind;
  }
  return 'device';
}
