import type { AlertSettings } from '@hearth/contracts';
import type { Notice } from '../notifications/index.js';
import { type HubPart, ALERT_TEXTS as T } from './alerts.messages.js';
import type { Incident } from './alerts.repository.js';
import { SAFETY_PROPERTIES, type SafetyProperty } from './alerts.rules.js';

const clocks = new Map<string, Intl.DateTimeFormat>();

/** HH:MM in the household's time zone. */
export function clockTime(iso: string, zone: string): string {
  let format = clocks.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(zone, format);
  }
  return format.format(Date.parse(iso));
}

const alarmsOf = (incident: Incident): SafetyProperty[] =>
  (incident.detail.tripped ?? []).filter((alarm): alarm is SafetyProperty =>
    (SAFETY_PROPERTIES as readonly string[]).includes(alarm),
  );

/** An incident's title and body as people read them (docs/strings.md#alerts). */
export function wordsOf(incident: Incident, zone: string): { title: string; body: string } {
  const resolved = incident.resolved_at !== null;
  const since = clockTime(incident.detail.since ?? incident.opened_at, zone);
  const at = clockTime(incident.resolved_at ?? incident.updated_at, zone);
  const name = incident.detail.name;
  switch (incident.rule) {
    case 'offline':
      return resolved
        ? { title: T.offline.resolvedTitle(name), body: T.offline.resolvedBody(at) }
        : { title: T.offline.title(name), body: T.offline.body(since) };
    case 'battery':
      return resolved
        ? { title: T.battery.resolvedTitle(name), body: T.battery.resolvedBody(incident.detail.battery) }
        : { title: T.battery.title(name), body: T.battery.body(incident.detail.battery) };
    case 'safety': {
      const alarms = alarmsOf(incident);
      const first = alarms[0] ?? 'water_leak';
      return resolved
        ? { title: T.safety.resolvedTitle(name, first), body: T.safety.resolvedBody(at) }
        : { title: T.safety.title(name, first), body: T.safety.body(alarms, since) };
    }
    // 'hub' (incidents never have the kind 'automation': automations publish their own notices).
    default: {
      const part: HubPart = incident.subject === 'bridge' ? 'bridge' : 'bus';
      return resolved
        ? { title: T.hub.resolvedTitle(part), body: T.hub.resolvedBody(at) }
        : { title: T.hub.title(part), body: T.hub.body(part, since) };
    }
  }
}

/** At most one delivery per person per this many minutes: an offline device's own wait, else a minute. */
export const windowOf = (incident: Incident, settings: AlertSettings): number =>
  incident.rule === 'offline' ? Math.max(1, settings.offline_after_minutes ?? 1) : 1;

/** The notice people are told of (docs/alerts.md#incidents). */
export function noticeOf(incident: Incident, settings: AlertSettings, zone: string): Notice {
  return {
    id: incident.id,
    kind: incident.rule,
    severity: incident.severity,
    ...wordsOf(incident, zone),
    device_id: incident.device_id,
    room_id: incident.room_id,
    audience: incident.rule === 'hub' ? 'admins' : 'device',
    window_minutes: windowOf(incident, settings),
    version: incident.version,
    created_at: incident.opened_at,
    updated_at: incident.updated_at,
    resolved_at: incident.resolved_at,
    acknowledged_at: incident.acknowledged_at,
    acknowledged_by: null,
  };
}
