import type { AedesPublishPacket, Client, PublishPacket, Subscription } from 'aedes';
import type { Logger } from 'pino';
import type { UserRecord } from '../../users/index.js';
import type { EdgeCommand } from './edge-broker.js';
import type { EdgeTopics } from './edge-topics.js';
import type { WebSocketTransport } from './ws-transport.js';

const userOf = (client: Client | null): UserRecord | undefined =>
  (client?.conn as WebSocketTransport | undefined)?.session?.user;

/**
 * What a browser may do once connected: subscribe under P/devices and P/events (QoS 0), publish
 * only the two command topics (which go to the hub, never to other browsers), and receive only
 * messages under P/devices and P/events.
 */
export function aclHooks(options: {
  topics: EdgeTopics;
  log: Logger;
  onCommand: (command: EdgeCommand, user: UserRecord) => void;
}) {
  const { topics, log } = options;

  const authorizeSubscribe = (
    _client: Client,
    subscription: Subscription,
    callback: (error: Error | null, subscription?: Subscription | null) => void,
  ) => {
    if (!topics.maySubscribe(subscription.topic)) return callback(null, null);
    callback(null, { ...subscription, qos: 0 });
  };

  const authorizePublish = (
    client: Client | null,
    packet: PublishPacket,
    callback: (error?: Error | null) => void,
  ) => {
    const user = userOf(client);
    const kind = topics.commandFor(packet.topic);
    if (!user || !kind) {
      // MQTT 3.1.1 has no way to refuse a PUBLISH but closing the connection (MQTT-3.3.5-2).
      log.info(
        { userId: user?.id, topic: packet.topic },
        'browser published outside the command topics; disconnected',
      );
      return callback(new Error('publishing is allowed only on the command topics'));
    }
    packet.retain = false;
    let payload: unknown;
    try {
      payload = JSON.parse(packet.payload.toString());
    } catch {
      log.info({ userId: user.id, topic: packet.topic }, 'browser command is not JSON; ignored');
      return callback(null);
    }
    options.onCommand({ kind, payload }, user);
    callback(null);
  };

  const authorizeForward = (_client: Client, packet: AedesPublishPacket) =>
    topics.mayDeliver(packet.topic) ? packet : null;

  return { authorizeSubscribe, authorizePublish, authorizeForward };
}
