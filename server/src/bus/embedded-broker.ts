import net from 'node:net';
import { Aedes } from 'aedes';
import type { Logger } from 'pino';
import { keepRetainedInOrder } from './retained-order.js';

export interface EmbeddedBroker {
  /** mqtt:// URL the hub's own client connects to. */
  url: string;
  /** TCP port Zigbee2MQTT may use when MQTT_LISTEN_PORT is set. */
  port: number;
  close(): Promise<void>;
}

/**
 * The bus when no MQTT_URL is configured: an Aedes broker on TCP. Without MQTT_LISTEN_PORT it
 * listens on an ephemeral loopback port that only this process knows; with it, on HOST so that
 * Zigbee2MQTT can use Hearth as its only broker.
 */
export async function startEmbeddedBroker(options: {
  listenPort?: number | undefined;
  host: string;
  log: Logger;
}): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({ drainTimeout: 10_000 });
  keepRetainedInOrder(broker);
  broker.on('clientError', (client, error) => {
    options.log.debug({ clientId: client?.id, err: error.message }, 'bus client error');
  });
  // No Nagle: a state message must not wait for the ACK of the previous one (up to 40 ms).
  const server = net.createServer({ noDelay: true }, (socket) => broker.handle(socket));
  const host = options.listenPort ? options.host : '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listenPort ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  const connectHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  if (options.listenPort) {
    options.log.info({ port: address.port, host }, 'embedded MQTT broker listening');
  }
  return {
    url: `mqtt://${connectHost.includes(':') ? `[${connectHost}]` : connectHost}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        broker.close(() => {});
        // server.close waits for sockets; broker.close ends them.
      }),
  };
}
