/** Shapes of the activity log (docs/activity.md), shared by server and web app. */

/**
 * Who did it: a signed-in person, a guest pass (its label), a script with an API token, an
 * automation (its name, acting for its owner), or Hearth itself.
 */
export type ActivityActorType = 'user' | 'pass' | 'api' | 'automation' | 'system';

export interface ActivityActor {
  type: ActivityActorType;
  /** The account's or pass's id (none for `system`). */
  id?: string;
  /** What the page shows: the person's name, the pass's label, … (as it was at the time). */
  label: string;
  /** An API token's or automation's owner: the person it acts for, their name as it was then. */
  owner?: { id: string; label: string };
}

export const ACTIVITY_RESULTS = ['ok', 'refused', 'failed'] as const;
export type ActivityResult = (typeof ACTIVITY_RESULTS)[number];

/**
 * Every kind of entry. `access.*` and `pass.*` are recorded by the access rules and guest passes
 * (docs/activity.md#kinds); `device.joined` … `device.back` by Hearth itself (actor `system`).
 */
export const ACTIVITY_KINDS = [
  'device.command',
  'device.rename',
  'room.create',
  'room.rename',
  'room.update',
  'room.delete',
  'room.assign',
  'floor.create',
  'floor.update',
  'floor.delete',
  'sign_in',
  'user.lock',
  'user.unlock',
  'user.role',
  'access.change',
  'pass.create',
  'pass.change',
  'pass.revoke',
  'pass.use',
  'favourites.change',
  'history.exclusions',
  'token.create',
  'token.revoke',
  'api.call',
  'device.joined',
  'device.left',
  'device.offline',
  'device.back',
  'automation.notify',
  'automation.enable',
  'automation.create',
  'automation.update',
  'automation.delete',
  'automation.run',
  'scene.create',
  'scene.update',
  'scene.delete',
  'alert.acknowledge',
  'alert.mute',
  'alert.settings',
  'source.forget',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** One entry of GET /api/activity. */
export interface ActivityEntry {
  id: string;
  /** ISO-8601 UTC. */
  at: string;
  actor: ActivityActor;
  ip?: string;
  /** The caller's user agent, when known. */
  client?: string;
  kind: ActivityKind;
  device_id?: string;
  room_id?: string;
  /** What was done: the command's state, the new name, the attempted e-mail, … (never a password). */
  detail: Record<string, unknown>;
  result: ActivityResult;
}

/** GET /api/activity: newest first; `next_cursor` asks for the entries after the last one (null: no more). */
export interface ActivityPage {
  entries: ActivityEntry[];
  next_cursor: string | null;
}

/** Entries per page of GET /api/activity. */
export const ACTIVITY_PAGE_SIZE = 100;
