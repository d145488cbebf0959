/** docs/strings.md#binary-value-reading and docs/strings.md#binary-labels-and-tones. */
const TRUTHY = new Set(['true', 'on', '1', 'yes', 'enabled', 'detected', 'active', 'closed', 'present']);
const FALSY = new Set(['false', 'off', '0', 'no', 'disabled', 'clear', 'inactive', 'open', 'absent']);

/** true / false for a readable binary value, null when the value says neither. */
export function readBinary(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value !== 0 : null;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUTHY.has(text)) return true;
    if (FALSY.has(text)) return false;
  }
  return null;
}

const LABELS: Record<string, [string, string]> = {
  contact: ['Closed', 'Open'],
  open: ['Open', 'Closed'],
  closed: ['Closed', 'Open'],
  occupancy: ['Detected', 'Clear'],
  motion: ['Detected', 'Clear'],
  presence: ['Detected', 'Clear'],
  water_leak: ['Leak', 'Dry'],
  leak: ['Leak', 'Dry'],
  moisture: ['Leak', 'Dry'],
  smoke: ['Smoke', 'Clear'],
  tamper: ['Tamper', 'Secure'],
  battery_low: ['Low', 'OK'],
  low_battery: ['Low', 'OK'],
};

/** Properties the tile shows as binary pills even when no capability announces them. */
export const KNOWN_BINARY_PROPERTIES = Object.keys(LABELS);

export function binaryLabel(property: string, value: boolean): string {
  const labels = LABELS[property.toLowerCase()] ?? ['On', 'Off'];
  return value ? labels[0] : labels[1];
}

export type Tone = 'neutral' | 'success' | 'warning' | 'danger';

export function binaryTone(property: string, value: boolean): Tone {
  const name = property.toLowerCase();
  if (value && (name === 'tamper' || name === 'smoke' || ['water_leak', 'leak', 'moisture'].includes(name))) {
    return 'danger';
  }
  if (value && (name === 'battery_low' || name === 'low_battery')) return 'warning';
  if (value && name === 'contact') return 'success';
  return 'neutral';
}
