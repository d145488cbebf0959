/**
 * docs/screens.md#devices-page icon rules, in their order: the first group whose word appears in a
 * device's capabilities, type, description, model, name or manufacturer wins. The web app draws
 * its tiles with them; the simulator's test checks its catalogue covers every icon with them.
 */
export type DeviceIconKind =
  | 'door'
  | 'light'
  | 'plug'
  | 'thermometer'
  | 'humidity'
  | 'battery'
  | 'voltage'
  | 'device';

const ICON_RULES: [DeviceIconKind, string[]][] = [
  ['door', ['door', 'contact']],
  ['light', ['light', 'lamp', 'brightness', 'color']],
  ['plug', ['plug', 'socket', 'outlet', 'power']],
  ['thermometer', ['thermo', 'heating', 'temperature']],
  ['humidity', ['humidity']],
  ['battery', ['battery']],
  ['voltage', ['voltage']],
];

/** What the rules read: a wire Device, or the web app's view of one. */
export interface DeviceIconSource {
  capabilities: readonly { id?: string; property?: string; name?: string }[];
  type?: string | null;
  description?: string | null;
  model?: string | null;
  name?: string | null;
  manufacturer?: string | null;
}

export function deviceIconKind(device: DeviceIconSource): DeviceIconKind {
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
  for (const [kind, needles] of ICON_RULES) {
    if (needles.some((needle) => words.includes(needle))) return kind;
  }
  return 'device';
}
