const TRUTHY = new Set(['true', 'on', '1', 'yes', 'enabled', 'detected', 'active', 'closed', 'present']);
const FALSY = new Set(['false', 'off', '0', 'no', 'disabled', 'clear', 'inactive', 'open', 'absent']);

/** docs/strings.md#binary-value-reading; undefined when the value is neither. */
export function readBinary(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const key = value.trim().toLowerCase();
  if (TRUTHY.has(key)) return true;
  if (FALSY.has(key)) return false;
  return undefined;
}
