import mqtt, { type IClientPublishOptions, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import {
  type EmbeddedBroker,
  type EmbeddedBrokerOptions,
  generatedCredentials,
  startEmbeddedBroker,
} from './embedded-broker.js';

export type MessageHandler = (topic: string, payload: Buffer, retained: boolean) => void;

/** Whether the bus is up, and since when (ISO-8601). */
export interface BusStatus {
  bus: 'online' | 'offline';
  since: string;
}

export interface Bus {
  /** Where the bus is: "embedded" or the upstream URL without credentials. */
  readonly description: string;
  readonly connected: boolean;
  status(): BusStatus;
  /** Calls the listener on every change: each outage and each recovery. Returns its remover. */
  onStatus(listener: (status: BusStatus) => void): () => void;
  publish(topic: string, payload: string | Buffer, options?: IClientPublishOptions): Promise<void>;
  /**
   * QoS 0 on the connection that receives, as a client that both publishes and subscribes (e.g.
   * Zigbee2MQTT) does: the bus probe's way to see what such a client gets from the broker.
   */
  publishOnReceiver?(topic: string, payload: string): Promise<void>;
  /** Subscribes a handler to a topic filter; returns the function that removes it. */
  subscribe(filter: string, handler: MessageHandler): Promise<() => void>;
  /**
   * A connection of its own to the same broker that only publishes, with a last will the broker
   * publishes when the connection dies without saying goodbye (a killed process), as Zigbee2MQTT's
   * `bridge/state` offline. Reconnects by itself, will and all; `close()` says goodbye (no will).
   */
  openPublisher?(options: { will: LastWill }): Publisher;
  close(): Promise<void>;
}

/** A message the broker publishes for a connection that died (MQTT's last will). */
export interface LastWill {
  topic: string;
  payload: string;
  retain: boolean;
}

/** See Bus.openPublisher. */
export interface Publisher {
  publish(topic: string, payload: string | Buffer, options?: IClientPublishOptions): Promise<void>;
  /** Calls the listener on each reconnect (not the first connect): the will may have been sent meanwhile. */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

export interface BusOptions {
  mqttUrl?: string | undefined;
  /**
   * The embedded broker when there is no MQTT_URL: Hearth's own credentials (generated for this
   * process when not given) and the listener for Zigbee2MQTT, if any.
   */
  embedded?: Partial<Omit<EmbeddedBrokerOptions, 'log'>>;
  log: Logger;
  clientId?: string;
  /**
   * An upstream broker gets two connections (receiving, sending) unless this is false; the
   * sending one's client id ends in "-tx".
   */
  splitConnections?: boolean;
}

/** Does an MQTT topic filter (with + and #) match a topic? */
export const topicMatches = (filter: string, topic: string): boolean => compileTopicFilter(filter)(topic);

/**
 * A matcher of one topic filter, compiled once: the common shapes (exact, `a/b/#`, `a/b/+`)
 * match without splitting or allocating; others split only the topic.
 */
export function compileTopicFilter(filter: string): (topic: string) => boolean {
  const wildcard = filter.search(/[+#]/);
  if (wildcard === -1) return (topic) => topic === filter;
  if (filter.endsWith('/#') && wildcard === filter.length - 1) {
    const prefix = filter.slice(0, -1);
    const parent = filter.slice(0, -2);
    return (topic) => topic.startsWith(prefix) || topic === parent;
  }
  if (filter === '#') return () => true;
  if (filter.endsWith('/+') && wildcard === filter.length - 1) {
    const prefix = filter.slice(0, -1);
    return (topic) => topic.startsWith(prefix) && topic.indexOf('/', prefix.length) === -1;
  }
  const f = filter.split('/');
  return (topic) => {
    const t = topic.split('/');
    for (let i = 0; i < f.length; i++) {
      if (f[i] === '#') return true;
      if (i >= t.length) return false;
      if (f[i] !== '+' && f[i] !== t[i]) return false;
    }
    return f.length === t.length;
  };
}

/**
 * How long to wait before reconnect attempt `attempt` (0 = the first after a loss): doubling from
 * 250 ms, at most 2 s during the first minute of an outage so a broker restart costs seconds, not
 * tens of seconds; then at most 5 s.
 */
export function reconnectDelay(attempt: number, outageMs: number): number {
  const cap = outageMs < 60_000 ? 2000 : 5000;
  return Math.min(250 * 2 ** Math.min(attempt, 10), cap);
}

const withoutCredentials = (url: string) => {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
};

/**
 * The hub's connection to the bus: the embedded broker by default, else MQTT_URL. Reconnects
 * with back-off and re-subscribes by itself; handlers are dispatched by topic filter.
 */
export async function connectBus(options: BusOptions): Promise<Bus> {
  let embedded: EmbeddedBroker | undefined;
  if (!options.mqttUrl) {
    embedded = await startEmbeddedBroker({
      internal: options.embedded?.internal ?? generatedCredentials(),
      external: options.embedded?.external,
      log: options.log,
    });
  }
  const url = options.mqttUrl ?? embedded?.url ?? '';
  const description = options.mqttUrl ? withoutCredentials(options.mqttUrl) : 'embedded';
  const log = options.log.child({ bus: description });

  const clientId = options.clientId ?? `hearth-${crypto.randomUUID().slice(0, 8)}`;
  const open = (id: string): MqttClient =>
    mqtt.connect(url, {
      clientId: id,
      clean: true,
      reconnectPeriod: reconnectDelay(0, 0),
      connectTimeout: 10_000,
      resubscribe: true,
      // mqtt-packet (MQTT.js's and Aedes' encoder, one module for both) otherwise builds a cache
      // of 65 536 two-byte Buffers on its first packet: about 7 MB of heap for what one small
      // allocation per packet does as well. The switch is the module's, so it holds for the edge
      // broker and the embedded broker too.
      writeCache: false,
      ...(embedded ? embedded.credentials : {}),
    });
  // Two connections to an upstream broker: one that only receives, one that only sends. A broker
  // without TCP_NODELAY (Mosquitto's default) holds each small message back until the one before
  // is acknowledged, and Linux delays that ACK by up to 40 ms on a connection that also sends
  // (it waits to piggyback it). On a connection that never sends, ACKs go at once: measured on a
  // default Mosquitto, pairs of messages 43 ms → 0.3–0.8 ms (README). The embedded broker sends
  // at once, so one connection does.
  const client = open(clientId);
  const sender = embedded || options.splitConnections === false ? client : open(`${clientId}-tx`);
  const clients = client === sender ? [client] : [client, sender];
  const allConnected = () => clients.every((each) => each.connected);

  let status: BusStatus = { bus: 'offline', since: new Date().toISOString() };
  const statusListeners = new Set<(status: BusStatus) => void>();
  const setStatus = (bus: BusStatus['bus']) => {
    if (status.bus === bus) return;
    status = { bus, since: new Date().toISOString() };
    for (const listener of statusListeners) {
      try {
        listener(status);
      } catch (error) {
        log.error({ err: error }, 'bus status listener failed');
      }
    }
  };

  let everConnected = false;
  // Each outage logs its errors once per distinct message, and its start and end once.
  let errorsLogged = new Set<string>();
  for (const each of clients) {
    let attempts = 0;
    each.on('connect', () => {
      // Small packets go out at once: with Nagle's algorithm a publish waits for the broker's
      // delayed ACK (40 ms on Linux) whenever another one is still unacknowledged.
      (each.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
      attempts = 0;
      each.options.reconnectPeriod = reconnectDelay(0, 0);
      if (!allConnected() || status.bus === 'online') return;
      errorsLogged = new Set();
      if (everConnected) log.info({ offlineMs: Date.now() - Date.parse(status.since) }, 'bus reconnected');
      else log.info('bus connected');
      everConnected = true;
      setStatus('online');
    });
    each.on('reconnect', () => {
      // MQTT.js reads the period when it schedules the next attempt (after this one fails).
      attempts += 1;
      each.options.reconnectPeriod = reconnectDelay(attempts, Date.now() - Date.parse(status.since));
    });
    each.on('error', (error) => {
      if (errorsLogged.has(error.message) || errorsLogged.size >= 10) return;
      errorsLogged.add(error.message);
      log.warn({ err: error }, 'bus error');
    });
    each.on('close', () => {
      if (each.disconnecting) return;
      if (status.bus === 'online') log.warn('bus offline; reconnecting');
      setStatus('offline');
    });
  }

  const handlers = new Set<{
    filter: string;
    matches: (topic: string) => boolean;
    handler: MessageHandler;
  }>();
  client.on('message', (topic, payload, packet) => {
    for (const entry of handlers) {
      if (!entry.matches(topic)) continue;
      try {
        entry.handler(topic, payload, packet.retain);
      } catch (error) {
        log.error({ err: error, topic }, 'bus message handler failed');
      }
    }
  });

  // An upstream broker that is down at start is not fatal: /healthz reports it and the
  // client keeps reconnecting. Give it a moment so a healthy start is ready at once.
  if (!allConnected()) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        for (const each of clients) each.off('connect', onConnect);
        log.warn('bus not reachable yet; continuing and retrying in the background');
        resolve();
      }, 5000);
      const onConnect = () => {
        if (!allConnected()) return;
        clearTimeout(timer);
        for (const each of clients) each.off('connect', onConnect);
        resolve();
      };
      for (const each of clients) each.on('connect', onConnect);
    });
  }

  return {
    description,
    get connected() {
      return allConnected();
    },
    status: () => status,
    onStatus: (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    publish: async (topic, payload, publishOptions) => {
      await sender.publishAsync(topic, payload, publishOptions ?? {});
    },
    publishOnReceiver: async (topic, payload) => {
      await client.publishAsync(topic, payload, { qos: 0, retain: false });
    },
    openPublisher: ({ will }) => {
      const connection = mqtt.connect(url, {
        clientId: `${clientId}-will-${crypto.randomUUID().slice(0, 4)}`,
        clean: true,
        reconnectPeriod: reconnectDelay(0, 0),
        connectTimeout: 10_000,
        writeCache: false,
        will: { ...will, payload: Buffer.from(will.payload), qos: 1 },
        ...(embedded ? embedded.credentials : {}),
      });
      let attempts = 0;
      let lostAt = Date.now();
      let connected = false;
      const reconnected = new Set<() => void>();
      connection.on('connect', () => {
        (connection.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
        attempts = 0;
        connection.options.reconnectPeriod = reconnectDelay(0, 0);
        if (connected) for (const listener of reconnected) listener();
        connected = true;
      });
      connection.on('close', () => {
        if (attempts === 0) lostAt = Date.now();
      });
      connection.on('reconnect', () => {
        attempts += 1;
        connection.options.reconnectPeriod = reconnectDelay(attempts, Date.now() - lostAt);
      });
      // Its outages are the bus's (same broker), which logs them; without a listener an error throws.
      connection.on('error', (error) => log.debug({ err: error }, 'publisher connection error'));
      return {
        publish: async (topic, payload, publishOptions) => {
          await connection.publishAsync(topic, payload, publishOptions ?? {});
        },
        onReconnect: (listener) => {
          reconnected.add(listener);
        },
        close: async () => {
          await connection.endAsync();
        },
      };
    },
    subscribe: async (filter, handler) => {
      const entry = { filter, matches: compileTopicFilter(filter), handler };
      handlers.add(entry);
      await client.subscribeAsync(filter, { qos: 0 });
      return () => {
        handlers.delete(entry);
        const stillUsed = [...handlers].some((other) => other.filter === filter);
        if (!stillUsed && client.connected) client.unsubscribe(filter);
      };
    },
    close: async () => {
      await Promise.all(clients.map((each) => each.endAsync(true)));
      await embedded?.close();
    },
  };
}
