import { Readable } from 'node:stream';
import { payloadOf } from './publish-packet.js';
import { matchesFilter } from './topic-matcher.js';

/** What Aedes' SUBSCRIBE handler reads from a retained stream (it builds the packet it sends). */
export interface RetainedMessage {
  cmd: 'publish';
  topic: string;
  payload: Buffer;
  qos: 0;
  retain: true;
}

/**
 * The hub's retained messages (each device's state, the lists), kept as the PUBLISH packets it
 * encoded to send them live. Aedes' own store keeps two packet objects and a payload view per
 * message; at a thousand updates a second of states that live as long as a device's report
 * interval, those outlived the young generation and filled the old one, whose collections paused
 * the stream. Here a message adds nothing but its packet, which exists anyway.
 */
export class RetainedPackets {
  private readonly packets = new Map<string, Buffer>();

  /** Keeps `packet` (from encodePublish) as the topic's retained message; an empty payload clears it. */
  store(topic: string, packet: Buffer) {
    if (payloadOf(packet).length === 0) this.packets.delete(topic);
    else this.packets.set(topic, packet);
  }

  /** The retained messages whose topic one of the filters matches, each once, in the order first stored. */
  *matching(filters: readonly string[]): Generator<RetainedMessage> {
    for (const [topic, packet] of this.packets) {
      if (!filters.some((filter) => matchesFilter(filter, topic))) continue;
      yield { cmd: 'publish', topic, payload: payloadOf(packet), qos: 0, retain: true };
    }
  }

  /**
   * Makes Aedes replay these, then whatever its own store holds, to a new subscription: its
   * SUBSCRIBE handler reads the persistence's `createRetainedStreamCombi`.
   */
  serveFrom(persistence: { createRetainedStreamCombi(patterns: string[]): Readable }) {
    const own = persistence.createRetainedStreamCombi.bind(persistence);
    const packets = this;
    persistence.createRetainedStreamCombi = (patterns) =>
      Readable.from(
        (async function* () {
          yield* packets.matching(patterns);
          yield* own(patterns);
        })(),
      );
  }
}
