import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import {
  type Device,
  type DeviceAccess,
  devicehubTopics,
  isManager,
  type StreamRefusal,
} from '@hearth/contracts';
import { Aedes } from 'aedes';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { TokenReader } from '../../accounts/index.js';
import type { Database } from '../../storage/schema.js';
import { type Principal, type Reach, type ReachSource, roleReach } from '../reach.js';
import { aclHooks } from './edge-acl.js';
import { checkUpgrade } from './edge-auth.js';
import { type ApiTokenAuthenticator, connectHooks, type PassAuthenticator } from './edge-connect.js';
import { DEFAULT_EDGE_LIMITS, type EdgeLimits } from './edge-limits.js';
import { EdgeTopics } from './edge-topics.js';
import { listenForUpgrades } from './edge-upgrade.js';
import { encodePublish } from './publish-packet.js';
import { RetainedPackets } from './retained-packets.js';
import { startUserRecheck } from './user-recheck.js';
import { type ConnectionSession, WebSocketTransport } from './ws-transport.js';

/** Most topics whose absolute form the edge keeps (a few per device). */
const MAX_KNOWN_TOPICS = 20_000;

/** A command a browser published on P/commands/device.set or P/commands/device.rename. */
export type EdgeCommand =
  | { kind: 'device.set'; payload: unknown }
  | { kind: 'device.rename'; payload: unknown };

/** Aedes' persistence, as far as retained replays go (missing from its type declarations). */
interface RetainedSource {
  createRetainedStreamCombi(patterns: string[]): Readable;
}

/** Who sent a command over the stream, what they reach, and where its refusal goes. */
export interface EdgeCaller {
  principal: Principal;
  reach: Reach;
  /** Where the connection comes from, for the activity log. */
  origin: { ip: string; client?: string };
  /** Publishes the refusal on the connection's reply topic (if it subscribed to it). */
  refuse(refusal: StreamRefusal): void;
}

export type EdgeCommandHandler = (command: EdgeCommand, caller: EdgeCaller) => void | Promise<void>;

/** A fast-path connection's view for a message only some connections get (it lists no devices). */
const NONE_VISIBLE: Map<string, DeviceAccess> = new Map();

/** What a message is about, so that a filtered connection gets only what it may view. */
export type EdgeAbout =
  | { type: 'state'; deviceId: string }
  | { type: 'upsert'; device: Device }
  | { type: 'removed'; deviceId: string }
  | { type: 'room'; roomId: string }
  /**
   * A floor's events and a room's removal: whoever sees one of these rooms (as `room`) or may view
   * one of these devices; when both are empty (an empty floor), residents and admins.
   */
  | { type: 'sight'; rooms: readonly string[]; devices: readonly string[] }
  | { type: 'favourites'; userId: string }
  /** Residents and admins only (automations, scenes). */
  | { type: 'managers' };

/**
 * Who gets an event (DeviceDirectory.publishEvent): `managers`, residents and admins only; or
 * whoever sees one of `rooms` or may view one of `devices` (an empty floor's: residents and admins).
 */
export type EventAudience = 'managers' | { rooms: readonly string[]; devices?: readonly string[] };

/** The hub's devices as the edge reads them when a connection's reach changes. */
export interface EdgeDirectory {
  devices(): Iterable<Device>;
  get(id: string): Device | undefined;
}

/** What the edge broker needs: who is behind a token, the public origin, and where users are. */
export interface EdgeBrokerDeps {
  auth: TokenReader;
  publicUrl: string;
  /** DEVICEHUB_TOPIC_PREFIX */
  topicPrefix: string;
  db: Kysely<Database>;
  log: Logger;
  /** Every account's reach (docs/access.md); none: the roles' defaults. */
  reach?: ReachSource;
  /** Guest passes' pages (username `pass`, the token as password); none: refused. */
  passes?: PassAuthenticator;
  /** Scripts with an API token as the password (docs/api.md#api-tokens); none: refused. */
  apiTokens?: ApiTokenAuthenticator;
  /** An upgrade's client address (TRUST_PROXY applied); none: the socket's peer. */
  clientAddress?: (request: IncomingMessage) => string;
}

/**
 * The MQTT-over-WebSocket broker browsers connect to at /ws/devicehub (DESIGN.md "Device hub").
 * Topics passed to publish() are relative to P = `${DEVICEHUB_TOPIC_PREFIX}/devicehub`, e.g.
 * `devices/<id>` or `events/device.upsert`.
 */
export interface EdgeBroker {
  /**
   * `about` says which device (or room, or account) the message concerns: a connection with a
   * narrower reach gets it only if it may view that (docs/access.md#stream). An upsert's payload is
   * the device with `access: "control"`; a connection that may only view it gets it re-encoded.
   * A function as the payload is called only when the message goes somewhere: a browser gets it,
   * or it is retained (2000 devices' upserts with nobody watching cost no JSON).
   */
  publish(
    topic: string,
    payload: string | Buffer | (() => string),
    options?: { retain?: boolean; about?: EdgeAbout },
  ): Promise<void>;
  /** Handles commands browsers publish, with who sent them and their reach. */
  onCommand(handler: EdgeCommandHandler): void;
  /** Where the hub's devices are: read when a connection's reach changes. */
  attach(directory: EdgeDirectory): void;
  /**
   * The reach of the matching connections may have changed: each reads it again and gets the
   * devices it now may view (`device.upsert` and their state) and loses the others
   * (`device.removed`), without reconnecting. Resolves when they have.
   */
  reachChanged(match: (principal: Principal) => boolean): Promise<void>;
  /** Number of connected browser clients. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Starts the edge broker: a separate Aedes instance (browsers never see the bus) on WebSocket
 * upgrades of the app's HTTP server. Call it before the app is ready, so that it closes with the
 * app; `limits` shortens time-outs in tests.
 */
export async function createEdgeBroker(
  app: FastifyInstance,
  deps: EdgeBrokerDeps,
  limits: Partial<EdgeLimits> = {},
): Promise<EdgeBroker> {
  const settings = { ...DEFAULT_EDGE_LIMITS, ...limits };
  const log = deps.log.child({ component: 'edge-broker' });
  const topics = new EdgeTopics(deps.topicPrefix);
  const reachSource = deps.reach ?? roleReach;
  const handlers: EdgeCommandHandler[] = [];
  let directory: EdgeDirectory = { devices: () => [], get: () => undefined };

  const upsertTopic = topics.absolute(devicehubTopics.upsert);
  const removedTopic = topics.absolute(devicehubTopics.removed);

  /** A filtered connection's devices: those its reach lets it view, with its level. */
  const visibleOf = (reach: Reach): Map<string, DeviceAccess> | undefined => {
    if (reach.everything) return undefined;
    const visible = new Map<string, DeviceAccess>();
    for (const device of directory.devices()) {
      const level = reach.levelOf(device.id);
      if (level !== 'none') visible.set(device.id, level);
    }
    return visible;
  };

  const write = (transport: WebSocketTransport, topic: string, payload: string, retain = false) => {
    if (transport.subscribedTo(topic))
      transport.writePacket(encodePublish(topic, Buffer.from(payload), retain));
  };
  const sendUpsert = (transport: WebSocketTransport, device: Device, level: DeviceAccess) =>
    write(transport, upsertTopic, JSON.stringify({ ...device, access: level }));
  const sendRemoved = (transport: WebSocketTransport, device: Pick<Device, 'id' | 'external_id'>) =>
    write(transport, removedTopic, JSON.stringify({ id: device.id, external_id: device.external_id }));
  /** A device that became visible: its state, as a subscription's retained replay would give it. */
  const sendState = (transport: WebSocketTransport, device: Device) =>
    write(transport, topics.absolute(devicehubTopics.device(device.id)), JSON.stringify(device.state), true);

  const dispatch = (command: EdgeCommand, transport: WebSocketTransport) => {
    const { principal, reach, replyTopic, address, userAgent } = transport.session;
    if (!principal || !reach) return;
    const caller: EdgeCaller = {
      principal,
      reach,
      origin: { ip: address, ...(userAgent ? { client: userAgent } : {}) },
      refuse: (refusal) => {
        if (replyTopic) write(transport, replyTopic, JSON.stringify(refusal));
      },
    };
    for (const handler of handlers) {
      Promise.resolve()
        .then(() => handler(command, caller))
        .catch((error: unknown) =>
          log.error({ err: error, kind: command.kind }, 'device command handler failed'),
        );
    }
  };

  const aedes = await Aedes.createBroker({
    connectTimeout: settings.connectTimeoutMs,
    maxTopicLevels: settings.maxTopicLevels,
    drainTimeout: settings.drainTimeoutMs,
    ...connectHooks({
      auth: deps.auth,
      reach: reachSource,
      passes: deps.passes,
      apiTokens: deps.apiTokens,
      topics,
      visibleOf,
      log,
    }),
    ...aclHooks({ topics, log, onCommand: dispatch }),
  });
  aedes.on('clientError', (client, error) =>
    log.debug({ clientId: client?.id, err: error.message }, 'browser client error'),
  );
  aedes.on('connectionError', (client, error) =>
    log.debug({ clientId: client?.id, err: error.message }, 'browser connection refused'),
  );

  const transportOf = new WeakMap<WebSocket, WebSocketTransport>();
  // Browsers whose MQTT session is established: the hub's messages go straight to them.
  const live = new Set<WebSocketTransport>();
  aedes.on('clientReady', (client) => {
    const transport = client.conn as unknown as WebSocketTransport;
    transport.session.client = client as unknown as ConnectionSession['client'];
    // Devices may have come or moved since CONNECT: a filtered connection starts from what is now.
    const reach = transport.session.reach;
    if (reach && !reach.everything) transport.session.visible = visibleOf(reach);
    if (!transport.destroyed) live.add(transport);
  });
  // The hub's retained messages: kept as the packets sent live, replayed through Aedes.
  const retained = new RetainedPackets();
  retained.serveFrom((aedes as unknown as { persistence: RetainedSource }).persistence);
  const addressOf = deps.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? '');
  const parseCookie = (header: string) => app.parseCookie(header) as Record<string, string | undefined>;
  const upgrades = listenForUpgrades({
    server: app.server,
    path: settings.path,
    // One frame may hold one packet of the largest size plus the WebSocket's own framing slack.
    maxPayload: settings.maxPacketBytes + 1024,
    log,
    check: (request) =>
      checkUpgrade(request, {
        auth: deps.auth,
        publicUrl: deps.publicUrl,
        parseCookie,
        mayConnect: async (user) => (await reachSource.reachOf(user)).any,
      }),
    onSocket: (socket, request, verdict) => {
      const transport = new WebSocketTransport(
        socket,
        {
          cookieUser: verdict.cookieUser,
          cookieToken: verdict.cookieToken,
          address: addressOf(request),
          userAgent: request.headers['user-agent']?.slice(0, 512),
        },
        {
          maxPacketBytes: settings.maxPacketBytes,
          maxQueuedBytes: settings.maxQueuedBytes,
          slowConsumerMs: settings.slowConsumerMs,
          maxPendingBytes: settings.maxPendingBytes,
          onDrop: (reason) =>
            log.info({ userId: transport.session.user?.id, reason }, 'browser connection dropped'),
        },
      );
      transportOf.set(socket, transport);
      transport.once('close', () => live.delete(transport));
      aedes.handle(transport, request);
    },
  });

  const recheck = startUserRecheck({
    db: deps.db,
    intervalMs: settings.recheckIntervalMs,
    log,
    sessionsEnded: (tokens) => deps.auth.sessionsEnded(tokens),
    connections: () =>
      [...upgrades.sockets()].flatMap((socket) => {
        const transport = transportOf.get(socket);
        const userId = transport?.session.user?.id;
        const role = transport?.session.user?.role;
        const token = transport?.session.token;
        return transport && userId && role
          ? [
              {
                userId,
                role,
                ...(token ? { token } : {}),
                close: (reason: string) => {
                  log.info({ userId, reason }, 'closing browser connection');
                  transport.destroy();
                },
              },
            ]
          : [];
      }),
  });

  // A session ended on this instance: its streams close now, not at the next interval.
  const stopListening = deps.auth.onSessionsEnded(() => void recheck.runOnce());

  /**
   * One connection's reach read again and applied (docs/access.md#stream): what it now may view and
   * had not been told of arrives, what it may no longer view is announced removed, a changed level
   * comes as an upsert. Each connection's changes run one after the other.
   */
  const refreshing = new WeakMap<WebSocketTransport, Promise<void>>();
  const refresh = (transport: WebSocketTransport): Promise<void> => {
    const run = (refreshing.get(transport) ?? Promise.resolve()).then(async () => {
      const session = transport.session;
      if (!session.loadReach || !session.reach || transport.destroyed) return;
      const reach = await session.loadReach();
      if (!reach) {
        log.info({ userId: session.user?.id }, 'closing browser connection: it may no longer view devices');
        return void transport.destroy();
      }
      const all = (): Map<string, DeviceAccess> => {
        const every = new Map<string, DeviceAccess>();
        for (const device of directory.devices()) every.set(device.id, 'control');
        return every;
      };
      const before = session.visible ?? (session.reach.everything ? all() : new Map());
      const visible = visibleOf(reach);
      const after = visible ?? all();
      session.reach = reach;
      session.visible = visible;
      if (!live.has(transport)) return;
      for (const [id, level] of after) {
        const was = before.get(id);
        if (was === level) continue;
        const device = directory.get(id);
        if (!device) continue;
        sendUpsert(transport, device, level);
        if (was === undefined) sendState(transport, device);
      }
      for (const id of before.keys()) {
        if (after.has(id)) continue;
        const device = directory.get(id);
        if (device) sendRemoved(transport, device);
      }
    });
    const settled = run.catch((error: unknown) =>
      log.warn({ err: error }, "reading a browser connection's reach again failed"),
    );
    refreshing.set(transport, settled);
    return settled;
  };
  const reachChanged = async (match: (principal: Principal) => boolean) => {
    const matching = [...upgrades.sockets()].flatMap((socket) => {
      const transport = transportOf.get(socket);
      const principal = transport?.session.principal;
      return transport && principal && match(principal) ? [transport] : [];
    });
    await Promise.all(matching.map(refresh));
  };
  const stopReach = reachSource.onChange((userIds) => {
    const changed = new Set(userIds);
    return reachChanged((principal) => principal.kind === 'user' && changed.has(principal.user.id));
  });

  /** Whether a filtered connection may view a device in the room (it gets `room.upsert`). */
  const seesRoom = (visible: Map<string, DeviceAccess>, roomId: string) => {
    for (const id of visible.keys()) if (directory.get(id)?.room_id === roomId) return true;
    return false;
  };

  /** Whether a filtered connection sees the room: its level on it, or a device in it (as GET /api/rooms). */
  const seesRoomOf = (transport: WebSocketTransport, visible: Map<string, DeviceAccess>, roomId: string) =>
    (transport.session.reach?.levelOfRoom(roomId) ?? 'none') !== 'none' || seesRoom(visible, roomId);
  const isManagerConnection = (transport: WebSocketTransport) => {
    const principal = transport.session.principal;
    return principal?.kind === 'user' && isManager(principal.user.role);
  };

  /** A message to a connection with a narrower reach: only what it may view (docs/access.md#stream). */
  const deliverFiltered = (
    transport: WebSocketTransport,
    visible: Map<string, DeviceAccess>,
    absolute: string,
    about: EdgeAbout | undefined,
    shared: () => Buffer,
  ) => {
    switch (about?.type) {
      case 'state':
        if (visible.has(about.deviceId) && transport.subscribedTo(absolute)) transport.writePacket(shared());
        return;
      case 'upsert': {
        const { device } = about;
        const level = transport.session.reach?.levelOf(device.id) ?? 'none';
        if (level === 'none') {
          if (visible.delete(device.id)) sendRemoved(transport, device);
          return;
        }
        const was = visible.get(device.id);
        visible.set(device.id, level);
        if (level === 'control') {
          if (transport.subscribedTo(absolute)) transport.writePacket(shared());
        } else sendUpsert(transport, device, level);
        if (was === undefined) sendState(transport, device);
        return;
      }
      case 'removed':
        if (visible.delete(about.deviceId) && transport.subscribedTo(absolute))
          transport.writePacket(shared());
        return;
      case 'room':
        // The rooms it sees (docs/access.md#where-it-is-enforced): its level on it, or a device in it.
        if (seesRoomOf(transport, visible, about.roomId) && transport.subscribedTo(absolute))
          transport.writePacket(shared());
        return;
      case 'sight': {
        const { rooms, devices } = about;
        const sees =
          rooms.some((roomId) => seesRoomOf(transport, visible, roomId)) ||
          devices.some((id) => visible.has(id)) ||
          (rooms.length === 0 && devices.length === 0 && isManagerConnection(transport));
        if (sees && transport.subscribedTo(absolute)) transport.writePacket(shared());
        return;
      }
      case 'favourites': {
        const principal = transport.session.principal;
        if (
          principal?.kind === 'user' &&
          principal.user.id === about.userId &&
          transport.subscribedTo(absolute)
        )
          transport.writePacket(shared());
        return;
      }
      case 'managers':
        if (isManagerConnection(transport) && transport.subscribedTo(absolute))
          transport.writePacket(shared());
        return;
      default:
        if (transport.subscribedTo(absolute)) transport.writePacket(shared());
    }
  };

  // Topics relative to P as the hub publishes them (a device's state topic, an event) and their
  // absolute form, checked once each: the stream publishes the same few thousand again and again.
  const absoluteTopics = new Map<string, string>();
  const absoluteOf = (topic: string): string => {
    let absolute = absoluteTopics.get(topic);
    if (absolute === undefined) {
      absolute = topics.absolute(topic);
      if (!topics.mayDeliver(absolute)) throw new Error(`browsers may not receive "${topic}"`);
      if (absoluteTopics.size >= MAX_KNOWN_TOPICS) absoluteTopics.clear();
      absoluteTopics.set(topic, absolute);
    }
    return absolute;
  };
  const published = Promise.resolve();

  /** EdgeBroker.publish, for an absolute topic browsers may receive; throws what serialising throws. */
  const publish = (
    absolute: string,
    payload: string | Buffer | (() => string),
    options: { retain?: boolean; about?: EdgeAbout },
  ): Promise<void> => {
    let packet: Buffer | undefined;
    const shared = () => {
      packet ??= encodePublish(absolute, typeof payload === 'function' ? payload() : payload);
      return packet;
    };
    for (const transport of live) {
      const visible = transport.session.visible;
      // The fast path: residents and admins without rules get the same bytes, unchecked.
      if (visible === undefined && options.about?.type !== 'managers') {
        if (transport.subscribedTo(absolute)) transport.writePacket(shared());
      } else deliverFiltered(transport, visible ?? NONE_VISIBLE, absolute, options.about, shared);
    }
    if (options.retain) retained.store(absolute, shared());
    return published;
  };

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopListening();
      stopReach();
      recheck.stop();
      const sockets = [...upgrades.sockets()];
      upgrades.stop();
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === socket.CLOSED) return resolve();
              socket.once('close', () => resolve());
              socket.close(1001, 'server shutting down');
              setTimeout(() => socket.terminate(), 500).unref();
            }),
        ),
      );
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    })();
    return closing;
  };

  try {
    // Upgraded sockets would otherwise hold the HTTP server's close open.
    app.addHook('preClose', close);
  } catch {
    log.debug('edge broker created after the app started; its owner closes it');
  }

  return {
    // The hub's messages bypass Aedes' per-subscriber path (a packet object, a timer tick and a
    // re-encoding for every browser): encoded once, the same bytes go to every subscriber.
    // Retained state is kept as those bytes (RetainedPackets), which Aedes replays to late subscribers.
    publish(topic, payload, options = {}) {
      try {
        return publish(absoluteOf(topic), payload, options);
      } catch (error) {
        // As from an async function: a bad topic or a payload that fails to serialise rejects.
        return Promise.reject(error);
      }
    },
    onCommand: (handler) => {
      handlers.push(handler);
    },
    attach: (devices) => {
      directory = devices;
    },
    reachChanged,
    connections: () => aedes.connectedClients,
    close,
  };
}
