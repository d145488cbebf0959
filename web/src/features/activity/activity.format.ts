import type { ActivityActor, ActivityEntry } from '@hearth/contracts';
import { API_ACTOR, AUTOMATION_ACTOR, KIND_LABELS, PASS_USES } from './activity.messages.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "3 h ago", "2 days ago"; older than a week: the date. */
export function relativeTime(at: string, now: number): string {
  const t = Date.parse(at);
  const ago = now - t;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 7 * DAY) {
    const days = Math.floor(ago / DAY);
    return days === 1 ? 'yesterday' : `${days} days ago`;
  }
  return new Date(t).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The full local date and time. */
export const absoluteTime = (at: string): string =>
  new Date(at).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A command's state as "on: true, brightness: 40". */
function stateText(state: unknown): string {
  if (!state || typeof state !== 'object') return '';
  return Object.entries(state as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

/** Who: the person, the pass, or an API token or automation with the person it acts for. */
export const actorLabel = (actor: ActivityActor): string =>
  actor.type === 'api' && actor.owner
    ? API_ACTOR(actor.label, actor.owner.label)
    : actor.type === 'automation' && actor.owner
      ? AUTOMATION_ACTOR(actor.label, actor.owner.label)
      : actor.label;

export interface Names {
  device(id: string): string | undefined;
  room(id: string): string | undefined;
}

/** The entry's "what" line: its kind, what it was about, and the essentials of its detail. */
export function describe(entry: ActivityEntry, names: Names): { title: string; summary: string } {
  const d = entry.detail;
  const device = entry.device_id
    ? (names.device(entry.device_id) ?? str(d.name) ?? entry.device_id)
    : undefined;
  const room = entry.room_id ? (names.room(entry.room_id) ?? entry.room_id) : undefined;
  const parts: string[] = [];
  switch (entry.kind) {
    case 'device.command':
      parts.push(stateText(d.state));
      break;
    case 'device.rename':
      if (str(d.to)) parts.push(`to “${str(d.to)}”`);
      break;
    case 'room.create':
    case 'room.rename':
    case 'floor.create':
      if (str(d.name)) parts.push(`“${str(d.name)}”`);
      break;
    case 'room.assign':
      if (typeof d.count === 'number') parts.push(`${d.count} device${d.count === 1 ? '' : 's'}`);
      break;
    case 'sign_in':
      if (str(d.email)) parts.push(str(d.email)!);
      break;
    case 'user.role':
      if (str(d.email)) parts.push(str(d.email)!);
      if (str(d.role)) parts.push(`→ ${str(d.role)}`);
      break;
    case 'user.lock':
    case 'user.unlock':
      if (str(d.email)) parts.push(str(d.email)!);
      break;
    case 'pass.use':
      if (d.action === 'open' || d.action === 'connect') parts.push(PASS_USES[d.action]);
      break;
    case 'api.call':
      if (str(d.method) && str(d.route)) parts.push(`${str(d.method)} ${str(d.route)} → ${String(d.status)}`);
      break;
    case 'token.create':
    case 'token.revoke':
    case 'scene.create':
    case 'scene.update':
    case 'scene.delete':
    case 'automation.create':
    case 'automation.update':
    case 'automation.delete':
    case 'automation.run':
      if (str(d.name)) parts.push(`“${str(d.name)}”`);
      break;
    case 'source.forget':
      if (str(d.topic)) parts.push(str(d.topic)!);
      break;
    default:
      break;
  }
  if (str(d.reason)) parts.push(`(${str(d.reason)})`);
  const about = [device, room].filter(Boolean).join(' · ');
  return {
    title: about
      ? `${KIND_LABELS[entry.kind] ?? entry.kind}: ${about}`
      : (KIND_LABELS[entry.kind] ?? entry.kind),
    summary: parts.filter(Boolean).join(' '),
  };
}
