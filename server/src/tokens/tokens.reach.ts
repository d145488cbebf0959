import { type AccessLevel, accessAtLeast } from '@hearth/contracts';
import type { Reach } from '../devicehub/index.js';
import type { ApiTokenRecord } from './tokens.repository.js';

const lower = (a: AccessLevel, b: AccessLevel): AccessLevel => (accessAtLeast(a, b) ? b : a);

/**
 * docs/api.md#api-tokens: what a token reaches. Its owner's reach now, at most `view` for a `read`
 * token, and, when it names rooms or devices, only those devices and the devices in those rooms
 * (a device moved into one is covered from then on). Built again at every call: a token never
 * outgrows its owner.
 */
export function tokenReach(
  token: Pick<ApiTokenRecord, 'id' | 'scope' | 'rooms' | 'devices'>,
  owner: Reach,
  roomOf: (deviceId: string) => string | null | undefined,
): Reach {
  const narrowed = token.rooms.length + token.devices.length > 0;
  // A control token over everything its owner controls without rules keeps the stream's fast path.
  if (owner.everything && !narrowed && token.scope === 'control') return owner;
  const most: AccessLevel = token.scope === 'control' ? 'control' : 'view';
  const devices = new Set(token.devices);
  const rooms = new Set(token.rooms);
  const inRoom = (roomId: string | null | undefined) => roomId != null && rooms.has(roomId);
  return {
    levelOf(deviceId) {
      if (narrowed && !devices.has(deviceId) && !inRoom(roomOf(deviceId))) return 'none';
      return lower(most, owner.levelOf(deviceId));
    },
    levelOfRoom(roomId) {
      return narrowed && !inRoom(roomId) ? 'none' : lower(most, owner.levelOfRoom(roomId));
    },
    everything: false,
    any: owner.any,
    tag: `api:${token.id}:${token.scope}:${owner.tag}`,
  };
}
