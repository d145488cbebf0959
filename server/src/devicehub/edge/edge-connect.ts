import { API_TOKEN_PREFIX } from '@hearth/contracts';
import type { AuthenticateError, Client, ConnectPacket } from 'aedes';
import type { Logger } from 'pino';
import type { TokenReader } from '../../accounts/index.js';
import type { Principal, Reach, ReachSource } from '../reach.js';
import type { EdgeTopics } from './edge-topics.js';
import { WebSocketTransport } from './ws-transport.js';

const refusal = (message: string, returnCode: 3 | 4 | 5): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/** The MQTT username a guest pass's page connects with; its password is the pass's token. */
export const PASS_USERNAME = 'pass';

/**
 * A guest pass behind a token (docs/access.md#stream): who it is and what it reaches, or undefined.
 * A CONNECT names its client (`from`: address and User-Agent): its address's look-ups are counted
 * and may be 'rate-limited' (docs/passes.md#rate-limit), and the CONNECT is recorded as a use of
 * the pass; reading an open connection's pass again is neither.
 */
export type PassAuthenticator = (
  token: string,
  from?: { address: string; client?: string },
) => Promise<{ principal: Principal & { kind: 'pass' }; reach: Reach } | 'rate-limited' | undefined>;

/**
 * An API token as the password (docs/api.md#api-tokens): its principal and reach now, or undefined.
 * A CONNECT names its client (`from`) and counts towards the token's rate limit ('rate-limited');
 * reading an open connection's token again does not.
 */
export type ApiTokenAuthenticator = (
  token: string,
  from?: { address: string; client?: string },
) => Promise<{ principal: Principal & { kind: 'api' }; reach: Reach } | 'rate-limited' | undefined>;

/**
 * The CONNECT checks: protocol level 4 only, no will message, an account that may view some device
 * (or a guest pass), own client ids. The connection keeps its principal and reach.
 */
export function connectHooks(options: {
  auth: TokenReader;
  reach: ReachSource;
  passes?: PassAuthenticator | undefined;
  apiTokens?: ApiTokenAuthenticator | undefined;
  topics: EdgeTopics;
  /** The connection's devices, from its reach (undefined: the fast path). */
  visibleOf: (reach: Reach) => Map<string, 'view' | 'control'> | undefined;
  log: Logger;
}) {
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

  /** A pass's page: username `pass`, password its token. */
  const asPass = async (client: Client, token: string) => {
    const session = (client.conn as unknown as WebSocketTransport).session;
    const from = { address: session.address, ...(session.userAgent ? { client: session.userAgent } : {}) };
    const pass = options.passes ? await options.passes(token, from) : undefined;
    // MQTT 3.1.1 has no "too many requests": "server unavailable" tells the page to try later.
    if (pass === 'rate-limited') return refusal('too many pass look-ups', 3);
    if (!pass) return refusal('invalid pass', 4);
    session.principal = pass.principal;
    session.reach = pass.reach;
    session.visible = options.visibleOf(pass.reach);
    session.loadReach = async () => {
      const again = await options.passes?.(token);
      return again === 'rate-limited' ? undefined : again?.reach;
    };
    session.replyTopic = options.topics.replyTopicOf(client.id);
    (client as { id: string }).id = `pass-${pass.principal.passId}:${client.id}`;
    return undefined;
  };

  /** A script with an API token as the password; its token is read again each time its reach is. */
  const asApiToken = async (client: Client, token: string) => {
    const session = (client.conn as unknown as WebSocketTransport).session;
    const from = { address: session.address, ...(session.userAgent ? { client: session.userAgent } : {}) };
    const found = options.apiTokens ? await options.apiTokens(token, from) : undefined;
    if (found === 'rate-limited') return refusal('too many calls with this API token', 3);
    if (!found) return refusal('invalid API token', 4);
    if (!found.reach.any) return refusal('role may not use the device hub', 5);
    session.principal = found.principal;
    session.reach = found.reach;
    session.visible = options.visibleOf(found.reach);
    session.loadReach = async () => {
      const again = await options.apiTokens?.(token);
      return again === 'rate-limited' ? undefined : again?.reach;
    };
    session.replyTopic = options.topics.replyTopicOf(client.id);
    (client as { id: string }).id = `api-${found.principal.tokenId}:${client.id}`;
    return undefined;
  };

  const authenticate = (
    client: Client,
    username: Readonly<string | undefined>,
    password: Readonly<Buffer | undefined>,
    callback: (error: AuthenticateError | null, ok: boolean | null) => void,
  ) => {
    const conn = client.conn as unknown as WebSocketTransport;
    const session = conn.session;
    if (session.willRequested) return callback(refusal('will messages are not allowed', 5), null);
    if (username === PASS_USERNAME && options.passes && password && password.length > 0) {
      return void asPass(client, password.toString('utf8'))
        .then((refused) => (refused ? callback(refused, null) : callback(null, true)))
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'edge broker pass authentication failed');
          callback(refusal('authentication failed', 5), null);
        });
    }
    if (options.apiTokens && password?.toString('utf8').startsWith(API_TOKEN_PREFIX)) {
      return void asApiToken(client, password.toString('utf8'))
        .then((refused) => (refused ? callback(refused, null) : callback(null, true)))
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'edge broker API token authentication failed');
          callback(refusal('authentication failed', 5), null);
        });
    }
    const fromPassword =
      password && password.length > 0 ? options.auth.userForToken(password.toString('utf8')) : undefined;
    Promise.resolve(fromPassword)
      .then(async (passwordUser) => {
        if (password && password.length > 0 && !passwordUser) {
          return callback(refusal('invalid access token', 4), null);
        }
        const user = passwordUser ?? session.cookieUser;
        if (!user) return callback(refusal('sign-in required', 5), null);
        const reach = await options.reach.reachOf(user);
        // docs/access.md#stream: an account that may view nothing is refused, as a `user` was before rules.
        if (!reach.any) return callback(refusal('role may not use the device hub', 5), null);
        session.user = user;
        session.principal = { kind: 'user', user };
        session.reach = reach;
        session.visible = options.visibleOf(reach);
        session.loadReach = () => options.reach.reachOf(user);
        session.replyTopic = options.topics.replyTopicOf(client.id);
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
