import type { AuthenticateError, Client, ConnectPacket } from 'aedes';
import type { Logger } from 'pino';
import type { TokenReader } from '../../accounts/index.js';
import { mayUseDevices } from './edge-auth.js';
import { WebSocketTransport } from './ws-transport.js';

const refusal = (message: string, returnCode: 4 | 5): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/** The CONNECT checks: protocol level 4 only, no will message, a resident/admin, own client ids. */
export function connectHooks(options: { auth: TokenReader; log: Logger }) {
  const preConnect = (
    client: Client,
    packet: ConnectPacket,
    callback: (error: Error | null, ok: boolean) => void,
  ) => {
    if (!(client.conn instanceof WebSocketTransport)) return callback(new Error('unknown transport'), false);
    // Aedes also speaks 3.1 (level 3); a level it rejects makes it answer "unacceptable protocol version".
    if (packet.protocolVersion !== 4) (packet as { protocolVersion: number }).protocolVersion = 0;
    if (packet.will) client.conn.session.willRequested = true;
    callback(null, true);
  };

  const authenticate = (
    client: Client,
    _username: Readonly<string | undefined>,
    password: Readonly<Buffer | undefined>,
    callback: (error: AuthenticateError | null, ok: boolean | null) => void,
  ) => {
    const conn = client.conn as unknown as WebSocketTransport;
    const session = conn.session;
    if (session.willRequested) return callback(refusal('will messages are not allowed', 5), null);
    const fromPassword =
      password && password.length > 0 ? options.auth.userForToken(password.toString('utf8')) : undefined;
    Promise.resolve(fromPassword)
      .then((passwordUser) => {
        if (password && password.length > 0 && !passwordUser) {
          return callback(refusal('invalid access token', 4), null);
        }
        const user = passwordUser ?? session.cookieUser;
        if (!user) return callback(refusal('sign-in required', 5), null);
        if (!mayUseDevices(user.role)) return callback(refusal('role may not use the device hub', 5), null);
        session.user = user;
        const token = passwordUser ? password?.toString('utf8') : session.cookieToken;
        if (token) session.token = token;
        // Client ids live in each user's own namespace: another user's id can't take over a
        // connection; the same user reconnecting with the same id replaces their old one.
        (client as { id: string }).id = `${user.id}:${client.id}`;
        callback(null, true);
      })
      .catch((error: unknown) => {
        options.log.error({ err: error }, 'edge broker authentication failed');
        callback(refusal('authentication failed', 5), null);
      });
  };

  return { preConnect, authenticate };
}
