import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodePublish } from './publish-packet.js';
import { RetainedPackets } from './retained-packets.js';

const text = (messages: Iterable<{ topic: string; payload: Buffer }>) =>
  [...messages].map(({ topic, payload }) => `${topic} ${payload.toString()}`);

describe('RetainedPackets', () => {
  it('keeps the last packet per topic, in the order topics first came, and clears on an empty payload', () => {
    const store = new RetainedPackets();
    store.store('p/devices/a', encodePublish('p/devices/a', '{"on":true}'));
    store.store('p/devices/b', encodePublish('p/devices/b', '{"on":false}'));
    store.store('p/devices/a', encodePublish('p/devices/a', '{"on":false}'));
    expect(text(store.matching(['p/devices/+']))).toEqual([
      'p/devices/a {"on":false}',
      'p/devices/b {"on":false}',
    ]);
    store.store('p/devices/a', encodePublish('p/devices/a', ''));
    expect(text(store.matching(['p/devices/#']))).toEqual(['p/devices/b {"on":false}']);
  });

  it('replays a topic once however many of the filters match it, and nothing no filter matches', () => {
    const store = new RetainedPackets();
    store.store('p/devices/a', encodePublish('p/devices/a', 'x'));
    store.store('p/events/list', encodePublish('p/events/list', 'y'));
    expect(text(store.matching(['p/devices/#', 'p/devices/a', '#']))).toEqual([
      'p/devices/a x',
      'p/events/list y',
    ]);
    expect(text(store.matching(['p/other/#']))).toEqual([]);
  });

  it("serves Aedes' retained stream: its own messages first, then what Aedes' store holds", async () => {
    const store = new RetainedPackets();
    store.store('p/devices/a', encodePublish('p/devices/a', 'ours'));
    const persistence = {
      createRetainedStreamCombi: (_patterns: string[]) =>
        Readable.from([
          { cmd: 'publish', topic: 'p/devices/z', payload: Buffer.from('aedes'), qos: 0, retain: true },
        ]),
    };
    store.serveFrom(persistence);
    const replayed = await persistence.createRetainedStreamCombi(['p/devices/#']).toArray();
    expect(text(replayed)).toEqual(['p/devices/a ours', 'p/devices/z aedes']);
    expect(replayed[0]).toMatchObject({ cmd: 'publish', qos: 0, retain: true });
  });
});
