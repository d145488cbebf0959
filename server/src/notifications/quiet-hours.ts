import type { QuietHours } from '@hearth/contracts';

// docs/alerts.md#delivery: quiet hours are wall-clock times in HOUSEHOLD_TIME_ZONE.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** `HH:MM` as minutes since midnight. */
export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The wall-clock minute of the day in `zone` at `at`. */
export function minuteOfDay(at: number, zone: string): number {
  let hour = 0;
  let minute = 0;
  for (const part of formatter(zone).formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value) % 24;
    if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/** Whether `minute` of the day lies in [start, end), the span crossing midnight when start > end. */
const inside = (minute: number, start: number, end: number): boolean =>
  start < end ? minute >= start && minute < end : minute >= start || minute < end;

/**
 * When the quiet hours that hold `at` end (epoch ms, at a whole minute), or null when `at` is not in
 * quiet hours (or there are none; equal start and end are none). Across a clock change the answer
 * may be an hour early or late: whoever waits for it asks again then.
 */
export function quietUntil(quiet: QuietHours | null, at: number, zone: string): number | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const now = minuteOfDay(at, zone);
  if (!inside(now, start, end)) return null;
  const minutesLeft = (end - now + 1440) % 1440;
  const wholeMinute = at - (at % 60_000);
  return wholeMinute + minutesLeft * 60_000;
}
