import type { ApiToken } from '@hearth/contracts';
import { API_TOKEN_TEXTS as T } from './api-tokens.messages.js';

const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A token's lines in the list: what it covers, and when it was made, last used and ends. */
export function describeToken(token: ApiToken, roomName: (id: string) => string | undefined): string[] {
  const covers =
    token.rooms.length + token.devices.length === 0
      ? T.allDevices
      : [
          ...token.rooms.map((id) => roomName(id) ?? id),
          ...(token.devices.length > 0
            ? [`${token.devices.length} device${token.devices.length === 1 ? '' : 's'}`]
            : []),
        ].join(', ');
  return [
    covers,
    [
      T.created(date(token.created_at)),
      token.last_used_at ? T.lastUsed(dateTime(token.last_used_at), token.last_used_ip) : T.neverUsed,
      token.expires_at ? T.expires(date(token.expires_at)) : T.neverExpires,
    ].join(' · '),
  ];
}
