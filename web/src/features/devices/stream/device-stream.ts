import { type DevicehubStatus, devicehubTopic, replyTopic, type StreamRefusal } from '@hearth/contracts';
import { type RoomEvent, readRoomEvent } from '../../rooms/room-events.js';
import { MESSAGES } from '../devices.messages.js';
import type { Json } from '../model/device.types.js';
import { streamTopics } from './topics.js';

/** docs/strings.md#device-stream timings. */
export const RECONNECT_AFTER_LOSS_MS = 1500;
export const RETRY_AFTER_FAILURE_MS = 2000;
export const CONNECT_TIMEOUT_MS = 6000;

/** The part of an MQTT.js client the stream uses (so tests can hand in a scripted one). */
export interface StreamClientLike {
  on(event: 'connect' | 'close', listener: () => void): unknown;
  on(
    event: 'message',
    listener: (topic: string, payload: Uint8Array, packet?: { retain?: boolean }) => void,
  ): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  subscribe(topics: string[], options: { qos: 0 }): unknown;
  publish(
    topic: string,
    message: string,
    options: { qos: 0; retain: false },
    callback?: (error?: Error) => void,
  ): unknown;
  end(force?: boolean): unknown;
}

export interface StreamConnectOptions {
  protocolVersion: 4;
  clientId: string;
  clean: true;
  connectTimeout: number;
  reconnectPeriod: 0;
  /** Plain timers: MQTT.js's worker timers would need a blob: worker the page's CSP refuses. */
  timerVariant: 'native';
  username?: string;
  password?: string;
}

export type ConnectFn = (url: string, options: StreamConnectOptions) => StreamClientLike;

export interface StreamHandlers {
  state(id: string, state: Json): void;
  upsert(device: Json): void;
  removed(payload: Json): void;
  /** The device bus behind the hub: up, or down since when (retained, so it comes on connect). */
  hubStatus(status: DevicehubStatus): void;
  status(connected: boolean): void;
  /** A connect failure's message, or null once connected again. */
  error(message: string | null): void;
  /** docs/rooms.md#events: a room, floor or favourites event. */
  room?(event: RoomEvent): void;
  /** docs/access.md: a command the stream dropped, with the server's reason (on `P/replies/{clientId}`). */
  refused?(refusal: StreamRefusal): void;
  /** A command the device refused or never answered (a Shelly RPC's error or silence), or the bus or bridge away. */
  failed?(failure: StreamRefusal): void;
}

export interface DeviceStreamOptions {
  url: string;
  connect: ConnectFn;
  handlers: StreamHandlers;
  /** Read on every attempt so a refreshed access token is used. */
  credentials?: () => { username?: string; password?: string };
  /** The server's DEVICEHUB_TOPIC_PREFIX (GET /api/config). */
  topicPrefix: string;
  now?: () => number;
  random?: () => number;
}

const decoder = new TextDecoder();

function parseJson(payload: Uint8Array): Json | null {
  try {
    const value: unknown = JSON.parse(decoder.decode(payload));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/**
 * docs/devicehub.md#stream: the device realtime stream. It reconnects on its own (MQTT.js's own reconnect is
 * off because the spec wants different delays after a loss and after a failed connect).
 */
export class DeviceStream {
  private client: StreamClientLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;
  private connected = false;
  /** Topics a live (not replayed) message has come on since this connection subscribed. */
  private readonly live = new Set<string>();
  /** This connection's reply topic (docs/access.md), set per attempt with its client id. */
  private replies: string | null = null;
  private readonly topics;
  /** Each room topic with its event kind (the topic's last part). */
  private readonly roomTopics: [string, string][];

  constructor(private readonly options: DeviceStreamOptions) {
    this.topics = streamTopics(options.topicPrefix);
    const { roomUpsert, roomRemoved, floorUpsert, floorRemoved, favouritesChanged } = this.topics;
    this.roomTopics = [roomUpsert, roomRemoved, floorUpsert, floorRemoved, favouritesChanged].map((topic) => [
      topic,
      topic.slice(topic.lastIndexOf('/') + 1),
    ]);
  }

  get isConnected() {
    return this.connected;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempt();
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dropClient();
    if (this.connected) {
      this.connected = false;
      this.options.handlers.status(false);
    }
  }

  /** Publishes a command (QoS 0, not retained); rejects with `notConnected` when the stream is down. */
  publish(kind: 'set' | 'rename', payload: Json, notConnected: string): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) return Promise.reject(new Error(notConnected));
    return new Promise((resolve, reject) => {
      client.publish(this.topics[kind], JSON.stringify(payload), { qos: 0, retain: false }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  private attempt() {
    const now = this.options.now ?? Date.now;
    const random = this.options.random ?? Math.random;
    const clientId = `rt-${now()}-${Math.floor(random() * 1000)}`;
    const replies = devicehubTopic(this.options.topicPrefix, replyTopic(clientId));
    const client = this.options.connect(this.options.url, {
      protocolVersion: 4,
      clientId,
      clean: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectPeriod: 0,
      timerVariant: 'native',
      ...this.options.credentials?.(),
    });
    this.client = client;
    let wasConnected = false;
    let closed = false;

    client.on('connect', () => {
      if (this.client !== client) return;
      this.live.clear();
      wasConnected = true;
      this.connected = true;
      this.replies = replies;
      client.subscribe(
        [
          this.topics.devices,
          this.topics.upsert,
          this.topics.removed,
          this.topics.hubStatus,
          ...this.roomTopics.map(([topic]) => topic),
          replies,
        ],
        {
          qos: 0,
        },
      );
      this.options.handlers.error(null);
      this.options.handlers.status(true);
    });
    client.on('message', (topic, payload, packet) => {
      // The broker replays retained messages (retain set) after SUBACK while live ones already flow:
      // one replayed after a live message on its topic is older than what the page holds (a lamp
      // switched as the page connects would show its old state until it changes again).
      if (packet?.retain) {
        if (this.live.has(topic)) return;
      } else this.live.add(topic);
      this.route(topic, payload);
    });
    // MQTT.js reports errors and then closes; the close decides what happens next.
    client.on('error', () => {});
    client.on('close', () => {
      if (closed || this.client !== client) return;
      closed = true;
      this.dropClient();
      if (this.stopped) return;
      if (wasConnected) {
        this.connected = false;
        this.options.handlers.status(false);
        this.retryIn(RECONNECT_AFTER_LOSS_MS);
      } else {
        this.options.handlers.error(MESSAGES.streamFailed);
        this.retryIn(RETRY_AFTER_FAILURE_MS);
      }
    });
  }

  private retryIn(delay: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.attempt();
    }, delay);
  }

  private dropClient() {
    const client = this.client;
    this.client = null;
    client?.end(true);
  }

  private route(topic: string, payload: Uint8Array) {
    const { handlers } = this.options;
    if (topic.startsWith(this.topics.devicePrefix)) {
      const id = topic.slice(this.topics.devicePrefix.length);
      const state = payload.length ? parseJson(payload) : null;
      if (id && state) handlers.state(id, state);
      return;
    }
    const body = parseJson(payload);
    if (!body) return;
    if (topic === this.replies) {
      const { kind, device_id, error } = body;
      if (typeof device_id !== 'string' || typeof error !== 'string') return;
      if (kind === 'refused') handlers.refused?.({ kind, device_id, error });
      else if (kind === 'failed') handlers.failed?.({ kind, device_id, error });
      return;
    }
    const roomKind = this.roomTopics.find(([roomTopic]) => roomTopic === topic)?.[1];
    if (roomKind) {
      const event = readRoomEvent(roomKind, body);
      if (event) handlers.room?.(event);
    } else if (topic === this.topics.upsert) handlers.upsert(body);
    else if (topic === this.topics.removed) {
      // A device hidden from this connection and shown again comes back with its state as a
      // replay (retain set): that one is current, whatever came live before it was hidden.
      if (typeof body.id === 'string') this.live.delete(this.topics.devicePrefix + body.id);
      handlers.removed(body);
    } else if (topic === this.topics.hubStatus) {
      const { bus, since, bridge } = body;
      if ((bus === 'online' || bus === 'offline') && typeof since === 'string')
        handlers.hubStatus({
          bus,
          since,
          ...(bridge === 'online' || bridge === 'offline' ? { bridge } : {}),
        });
    }
  }
}
