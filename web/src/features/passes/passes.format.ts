import { type PassInfo, type PassStatus, type PassWindow, WEEKDAYS, type Weekday } from '@hearth/contracts';
import { GUEST_MESSAGES as G } from './passes.messages.js';

const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
export const dayName = (day: Weekday) => DAY_NAMES[day];

/** An instant as the household reads it: "Tue 24 Nov, 09:00" in its time zone. */
export function formatTime(iso: string, zone: string, locale = 'en-GB'): string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return format.format(new Date(iso));
}

/** "Mon–Fri 09:00–13:00; Sat 10:00–12:00": days in a row are joined with a dash. */
export function describeSchedule(schedule: readonly PassWindow[]): string {
  return schedule
    .map((window) => {
      const indexes = WEEKDAYS.map((day, index) => (window.days.includes(day) ? index : -1)).filter(
        (index) => index >= 0,
      );
      const runs: [number, number][] = [];
      for (const index of indexes) {
        const last = runs[runs.length - 1];
        if (last && last[1] === index - 1) last[1] = index;
        else runs.push([index, index]);
      }
      const days = runs
        .map(([a, b]) => {
          const first = DAY_NAMES[WEEKDAYS[a]!];
          const end = DAY_NAMES[WEEKDAYS[b]!];
          return a === b ? first : b === a + 1 ? `${first}, ${end}` : `${first}–${end}`;
        })
        .join(', ');
      return `${days} ${window.from}–${window.to}`;
    })
    .join('; ');
}

/** When a pass works, in a line: its period and its weekly windows. */
export function describeValidity(
  pass: { starts_at: string | null; ends_at: string | null; schedule: PassWindow[] | null },
  zone: string,
): string {
  const parts: string[] = [];
  if (pass.starts_at && pass.ends_at)
    parts.push(`${formatTime(pass.starts_at, zone)} – ${formatTime(pass.ends_at, zone)}`);
  else if (pass.ends_at) parts.push(`until ${formatTime(pass.ends_at, zone)}`);
  else if (pass.starts_at) parts.push(`from ${formatTime(pass.starts_at, zone)}`);
  if (pass.schedule) parts.push(describeSchedule(pass.schedule));
  return parts.join(', ');
}

export const STATUS_TONES: Record<PassStatus, string> = {
  active: 'tone-success',
  scheduled: 'tone-muted',
  paused: 'tone-warning',
  expired: 'tone-muted',
};

/** What the guest's page says when the pass does not work now (null: it works). */
export function guestNotice(info: PassInfo, now = Date.now()): string | null {
  switch (info.status) {
    case 'active':
      return null;
    case 'expired':
      return G.expired;
    case 'paused':
      return G.paused;
    case 'scheduled': {
      const when = info.next_start ? formatTime(info.next_start, info.time_zone) : '';
      const notStarted = info.starts_at !== null && Date.parse(info.starts_at) > now;
      return notStarted ? G.notYet(when) : G.outsideHours(when);
    }
  }
}

/** A `datetime-local` value (the browser's own zone) as ISO-8601, or undefined when empty. */
export const fromLocalInput = (value: string): string | undefined =>
  value ? new Date(value).toISOString() : undefined;

/** An instant as a `datetime-local` value in the browser's zone. */
export function toLocalInput(at: number): string {
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
