/** Shapes of the access rules (docs/access.md), shared by server and web app. */
import type { Role } from './roles.js';

/** What an account may do with a room's or a device's devices: nothing, watch them, or control them too. */
export const ACCESS_LEVELS = ['none', 'view', 'control'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * GET and PUT /api/access/{user_id}: the account's rules. An entry left out means the role's
 * default (`ROLE_DEFAULT_ACCESS`); a device's rule overrides its room's.
 */
export interface AccessRules {
  user_id: string;
  rooms: Record<string, AccessLevel>;
  devices: Record<string, AccessLevel>;
}

/** docs/access.md#defaults: admins and residents control everything, a `user` sees nothing. */
export const ROLE_DEFAULT_ACCESS: Record<Role, AccessLevel> = {
  user: 'none',
  resident: 'control',
  admin: 'control',
};

/** The level a device object carries for its caller (devices at `none` are not listed). */
export type DeviceAccess = Exclude<AccessLevel, 'none'>;

/** Whether `level` is at least `wanted` (`none` < `view` < `control`). */
export const accessAtLeast = (level: AccessLevel, wanted: AccessLevel): boolean =>
  ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(wanted);

/** docs/access.md#messages: the answers to a call on a device out of reach or only viewable. */
export const ACCESS_MESSAGES = {
  deviceNotFound: 'Device not found',
  viewOnly: 'You may only view this device, not control it',
  /** A `user` may control a device but not rename it or move it between rooms. */
  managersOnly: 'Only residents and admins may rename devices or assign rooms',
  roomControl: 'You may only view the devices of this room, not control them',
} as const;

/**
 * `{P}/replies/{clientId}`: what the stream answers a command it dropped with (only that client
 * may subscribe to it): `refused` (not sent: out of reach, view only, a value it can't take), or
 * `failed` (the bus or the bridge away, or the device refused it or never answered: a REST call's 5xx).
 */
export interface StreamRefusal {
  kind: 'refused' | 'failed';
  device_id: string;
  error: string;
}

/** The reply topic of a stream client, relative to P. */
export const replyTopic = (clientId: string) => `replies/${clientId}`;
