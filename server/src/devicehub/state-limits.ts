import type { DeviceState } from '@hearth/contracts';

/** Most JSON bytes a device's merged state may take (a real one is well under 2 KB). */
export const MAX_STATE_BYTES = 16 * 1024;
/** Most JSON bytes one value may take; longer strings are cut, other values dropped. */
export const MAX_VALUE_BYTES = 4 * 1024;

const sizeOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

export interface BoundedState {
  state: DeviceState;
  /** Keys dropped or cut to stay within the limits (for one warning). */
  trimmed: string[];
}

/** Cuts a string to at most `bytes` of UTF-8 without splitting a character. */
function cut(text: string, bytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  return buffer
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/**
 * Merges a report into a device's state within the limits: a value over MAX_VALUE_BYTES is cut
 * (a string) or dropped; keys that would take the whole state over MAX_STATE_BYTES are dropped,
 * the report's last keys first. What the device had before stays.
 */
export function mergeBounded(current: DeviceState, report: DeviceState): BoundedState {
  const trimmed: string[] = [];
  const merged: DeviceState = { ...current };
  const accepted: string[] = [];
  for (const [key, value] of Object.entries(report)) {
    if (sizeOf(key) + sizeOf(value) <= MAX_VALUE_BYTES) {
      merged[key] = value;
      accepted.push(key);
    } else if (typeof value === 'string') {
      merged[key] = cut(value, MAX_VALUE_BYTES - sizeOf(key) - 16);
      accepted.push(key);
      trimmed.push(key);
    } else {
      trimmed.push(key);
    }
  }
  let size = sizeOf(merged);
  while (size > MAX_STATE_BYTES && accepted.length > 0) {
    const key = accepted.pop() as string;
    if (key in current) merged[key] = current[key];
    else delete merged[key];
    if (!trimmed.includes(key)) trimmed.push(key);
    size = sizeOf(merged);
  }
  // A state that was already too large (stored before these limits) loses its largest values.
  if (size > MAX_STATE_BYTES) {
    const largest = Object.keys(merged).sort((a, b) => sizeOf(merged[b]) - sizeOf(merged[a]));
    for (const key of largest) {
      if (size <= MAX_STATE_BYTES) break;
      delete merged[key];
      if (!trimmed.includes(key)) trimmed.push(key);
      size = sizeOf(merged);
    }
  }
  return { state: merged, trimmed };
}
