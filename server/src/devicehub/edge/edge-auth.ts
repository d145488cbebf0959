import type { IncomingMessage } from 'node:http';
import { AUTH_COOKIE, type TokenReader } from '../../accounts/index.js';
import type { UserRecord } from '../../users/index.js';

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * Whether a browser page at `origin` may open the stream: the server's public origin, or the
 * origin the request itself was addressed to (loopback and LAN addresses). Anything else is a
 * cross-site WebSocket hijacking attempt.
 */
export function originAllowed(origin: string, host: string | undefined, publicUrl: string): boolean {
  const actual = originOf(origin);
  if (!actual || actual === 'null') return false;
  const allowed = [originOf(publicUrl)];
  if (host) allowed.push(originOf(`http://${host}`), originOf(`https://${host}`));
  return allowed.includes(actual);
}

export type UpgradeVerdict =
  | { allowed: true; cookieUser: UserRecord | undefined; cookieToken?: string | undefined }
  | { allowed: false; status: 400 | 401 | 403; error: string };

/**
 * Checks an upgrade request before it becomes a WebSocket: the Origin, the MQTT subprotocol and
 * the `auth_token` cookie. A request without a valid cookie may still upgrade, because the access
 * token can come as the MQTT password; CONNECT checks it.
 */
export async function checkUpgrade(
  request: IncomingMessage,
  options: {
    auth: TokenReader;
    publicUrl: string;
    parseCookie: (header: string) => Record<string, string | undefined>;
    /** Whether the account may view some device (docs/access.md#stream). */
    mayConnect: (user: UserRecord) => Promise<boolean>;
  },
): Promise<UpgradeVerdict> {
  const origin = request.headers.origin;
  if (origin !== undefined && !originAllowed(origin, request.headers.host, options.publicUrl)) {
    return { allowed: false, status: 403, error: 'Origin not allowed' };
  }
  const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if (!protocols.includes('mqtt')) {
    return { allowed: false, status: 400, error: 'The "mqtt" WebSocket subprotocol is required' };
  }
  const cookieHeader = request.headers.cookie;
  const token = cookieHeader ? options.parseCookie(cookieHeader)[AUTH_COOKIE] : undefined;
  const cookieUser = token ? await options.auth.userForToken(token) : undefined;
  if (cookieUser && !(await options.mayConnect(cookieUser))) {
    return { allowed: false, status: 403, error: 'Forbidden' };
  }
  return { allowed: true, cookieUser, cookieToken: cookieUser ? token : undefined };
}
