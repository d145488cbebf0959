/** docs/strings.md#constants-and-limits: number display, metric rounding, last-seen wording and description truncation. */

/** Values of 100 or more with 0 decimals, others with 1; a trailing ".0" is dropped. */
export function formatNumber(value: number): string {
  const text = Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** Metric values: integers as they are, other numbers rounded to 2 decimals. */
export function formatMetricNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Math.round(value * 100) / 100);
}

export const DESCRIPTION_LIMIT = 140;

export function truncateDescription(text: string): string {
  return text.length > DESCRIPTION_LIMIT ? `${text.slice(0, DESCRIPTION_LIMIT - 1)}…` : text;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "Ns ago", "Nm ago", "Nh ago", "Nd ago", a date, or "never". */
export function formatLastSeen(timestamp: number | null, now: number): string {
  if (timestamp === null || !Number.isFinite(timestamp)) return 'never';
  const age = Math.max(0, now - timestamp);
  if (age < 20 * SECOND) return 'just now';
  if (age < MINUTE) return `${Math.floor(age / SECOND)}s ago`;
  if (age < HOUR) return `${Math.floor(age / MINUTE)}m ago`;
  if (age < 48 * HOUR) return `${Math.floor(age / HOUR)}h ago`;
  if (age < 14 * DAY) return `${Math.floor(age / DAY)}d ago`;
  return new Date(timestamp).toLocaleDateString();
}

/** "HH:MM" of an ISO time in local time (24 hours); empty when it is not a time. */
export function clockTime(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/** Epoch milliseconds from a date string, a Date or a number; null when it is not a date. */
export function parseTime(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const time = Date.parse(value);
    return Number.isNaN(time) ? null : time;
  }
  return null;
}

/** `water_leak` → "Water leak". */
export function humanise(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}
