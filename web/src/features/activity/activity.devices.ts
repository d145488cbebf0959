import type { Device } from '@hearth/contracts';

/** Names compared as people read them: case and accents ignored, "Lamp 2" before "Lamp 10". */
const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * docs/activity.md#page: the Device filter's choices, sorted by name; with a search, only the
 * devices whose name holds every word typed (ignoring case). The chosen device stays listed
 * whatever the search, so the select never shows a value it does not hold.
 */
export function deviceChoices(devices: readonly Device[], search: string, chosen: string): Device[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (device: Device) => {
    const name = device.name.toLowerCase();
    return words.every((word) => name.includes(word));
  };
  return devices
    .filter((device) => device.id === chosen || matches(device))
    .sort((a, b) => byName.compare(a.name, b.name) || a.id.localeCompare(b.id));
}
