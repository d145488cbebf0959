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
  /** Subscribes a handler to a topic filter; returns the function that removes it. */
  subscribe(filter: string, handler: MessageHandler): Promise<() => void>;
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
}

/** Does an MQTT topic filter (with + and #) match a topic? */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
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

  const client: MqttClient = mqtt.connect(url, {
    clientId: options.clientId ?? `hearth-${crypto.randomUUID().slice(0, 8)}`,
    clean: true,
    reconnectPeriod: reconnectDelay(0, 0),
    connectTimeout: 10_000,
    resubscribe: true,
    ...(embedded ? embedded.credentials : {}),
  });

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
  let attempts = 0;
  // Each outage logs its errors once per distinct message, and its start and end once.
  let errorsLogged = new Set<string>();
  client.on('connect', () => {
    // Small packets go out at once: with Nagle's algorithm a publish waits for the broker's
    // delayed ACK (40 ms on Linux) whenever another one is still unacknowledged.
    (client.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
    attempts = 0;
    client.options.reconnectPeriod = reconnectDelay(0, 0);
    errorsLogged = new Set();
    if (everConnected) log.info({ offlineMs: Date.now() - Date.parse(status.since) }, 'bus reconnected');
    else log.info('bus connected');
    everConnected = true;
    setStatus('online');
  });
  client.on('reconnect', () => {
    // MQTT.js reads the period when it schedules the next attempt (after this one fails).
    attempts += 1;
    client.options.reconnectPeriod = reconnectDelay(attempts, Date.now() - Date.parse(status.since));
  });
  client.on('error', (error) => {
    if (errorsLogged.has(error.message) || errorsLogged.size >= 10) return;
    errorsLogged.add(error.message);
    log.warn({ err: error }, 'bus error');
  });
  client.on('close', () => {
    if (status.bus === 'online' && !client.disconnecting) log.warn('bus offline; reconnecting');
    if (!client.disconnecting) setStatus('offline');
  });

  const handlers = new Set<{ filter: string; handler: MessageHandler }>();
  client.on('message', (topic, payload, packet) => {
    for (const entry of handlers) {
      if (!topicMatches(entry.filter, topic)) continue;
      try {
        entry.handler(topic, payload, packet.retain);
      } catch (error) {
        log.error({ err: error, topic }, 'bus message handler failed');
      }
    }
  });

  // An upstream broker that is down at start is not fatal: /healthz reports it and the
  // client keeps reconnecting. Give it a moment so a healthy start is ready at once.
  if (!client.connected) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        client.off('connect', onConnect);
        log.warn('bus not reachable yet; continuing and retrying in the background');
        resolve();
      }, 5000);
      const onConnect = () => {
        clearTimeout(timer);
        resolve();
      };
      client.once('connect', onConnect);
    });
  }

  return {
    description,
    get connected() {
      return client.connected;
    },
    status: () => status,
    onStatus: (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    publish: async (topic, payload, publishOptions) => {
      await client.publishAsync(topic, payload, publishOptions ?? {});
    },
    subscribe: async (filter, handler) => {
      const entry = { filter, handler };
      handlers.add(entry);
      await client.subscribeAsync(filter, { qos: 0 });
      return () => {
        handlers.delete(entry);
        const stillUsed = [...handlers].some((other) => other.filter === filter);
        if (!stillUsed && client.connected) client.unsubscribe(filter);
      };
    },
    close: async () => {
      await client.endAsync(true);
      await embedded?.close();
    },
  };
}
