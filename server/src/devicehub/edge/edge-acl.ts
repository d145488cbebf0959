import type { AedesPublishPacket, Client, PublishPacket, Subscription } from 'aedes';
import type { Logger } from 'pino';
import type { EdgeCommand } from './edge-broker.js';
import type { EdgeTopics } from './edge-topics.js';
import type { ConnectionSession, WebSocketTransport } from './ws-transport.js';

const sessionOf = (client: Client | null): ConnectionSession | undefined =>
  (client?.conn as WebSocketTransport | undefined)?.session;

/**
 * What a browser may do once connected: subscribe under P/devices and P/events (QoS 0) and to its
 * own reply topic, publish only the two command topics (which go to the hub, never to other
 * browsers), and receive only messages under P/devices and P/events — of a filtered connection
 * (docs/access.md#stream), only the state of devices it may view (retained replays included).
 */
export function aclHooks(options: {
  topics: EdgeTopics;
  log: Logger;
  onCommand: (command: EdgeCommand, transport: WebSocketTransport) => void;
}) {
  const { topics, log } = options;

  const authorizeSubscribe = (
    client: Client,
    subscription: Subscription,
    callback: (error: Error | null, subscription?: Subscription | null) => void,
  ) => {
    const own = sessionOf(client)?.replyTopic;
    if (!topics.maySubscribe(subscription.topic) && (own === undefined || subscription.topic !== own)) {
      return callback(null, null);
    }
    callback(null, { ...subscription, qos: 0 });
  };

  const authorizePublish = (
    client: Client | null,
    packet: PublishPacket,
    callback: (error?: Error | null) => void,
  ) => {
    const session = sessionOf(client);
    const who = session?.principal;
    const kind = topics.commandFor(packet.topic);
    const userId =
      who?.kind === 'user' ? who.user.id : who?.kind === 'pass' ? `pass:${who.passId}` : undefined;
    if (!who || !kind || !client) {
      // MQTT 3.1.1 has no way to refuse a PUBLISH but closing the connection (MQTT-3.3.5-2).
      log.info({ userId, topic: packet.topic }, 'browser published outside the command topics; disconnected');
      return callback(new Error('publishing is allowed only on the command topics'));
    }
    packet.retain = false;
    let payload: unknown;
    try {
      payload = JSON.parse(packet.payload.toString());
    } catch {
      log.info({ userId, topic: packet.topic }, 'browser command is not JSON; ignored');
      return callback(null);
    }
    options.onCommand({ kind, payload }, client.conn as unknown as WebSocketTransport);
    callback(null);
  };

  const authorizeForward = (client: Client, packet: AedesPublishPacket) => {
    if (!topics.mayDeliver(packet.topic)) return null;
    const visible = sessionOf(client)?.visible;
    if (visible === undefined) return packet;
    const id = topics.deviceOf(packet.topic);
    return id === undefined || visible.has(id) ? packet : null;
  };

  return { authorizeSubscribe, authorizePublish, authorizeForward };
}
