import { afterEach, describe, expect, it } from 'vitest';
import { sqliteDatabase, testDatabases } from '../../../test/databases.js';
import { type EdgeHarness, eventually, inbox, P, rawPackets, startEdgeHarness } from './edge-test-kit.js';

describe.each(testDatabases())('edge broker: a browser that stops reading ($name)', ({ create }) => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  it('is dropped while another browser keeps receiving every message', async () => {
    h = await startEdgeHarness(await create(), { maxQueuedBytes: 1024 * 1024 });
    const { token } = await h.user('resident');
    const fast = await h.connect({ token });
    const received = inbox(fast);
    await fast.subscribeAsync(`${P}/devices/#`);

    const { socket: slow } = await h.rawSocket();
    if (!slow) throw new Error('no socket');
    slow.send(rawPackets.connect('rt-slow', token));
    slow.send(rawPackets.subscribe(1, `${P}/devices/#`));
    await eventually(() => h.edge.connections() === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The slow browser stops reading: its kernel buffers fill, then the broker's queue.
    slow.pause();

    const payload = JSON.stringify({ blob: 'x'.repeat(64 * 1024) });
    const count = 600; // ~38 MB: more than loopback socket buffers can hide
    for (let i = 0; i < count; i++) {
      await h.edge.publish(`devices/d${i}`, payload);
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await eventually(() => received.length === count, 20_000);
    await eventually(() => h.edge.connections() === 1, 5000);
    expect(h.app.logs.text).toContain('slow consumer');
  });
});

describe('edge broker: how packets become frames', () => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  it('sends each MQTT packet as one whole WebSocket frame, not a frame per chunk', async () => {
    h = await startEdgeHarness(sqliteDatabase());
    const { token } = await h.user('resident');
    const { socket } = await h.rawSocket();
    if (!socket) throw new Error('no socket');
    const frames: Buffer[] = [];
    socket.on('message', (data: Buffer) => frames.push(data));
    socket.send(rawPackets.connect('rt-frames', token));
    socket.send(rawPackets.subscribe(1, `${P}/devices/#`));
    await eventually(() => frames.length === 2); // CONNACK, SUBACK
    await h.edge.publish('devices/lamp', '{"state":"ON","brightness":128}');
    await eventually(() => frames.length === 3);
    const publish = frames[2] as Buffer;
    const topic = `${P}/devices/lamp`;
    const payload = '{"state":"ON","brightness":128}';
    expect(publish[0]).toBe(0x30);
    expect(publish.length).toBe(2 + 2 + topic.length + payload.length);
    expect(publish.subarray(4 + topic.length).toString()).toBe(payload);
  });
});
