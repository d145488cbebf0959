import { afterEach, describe, expect, it } from 'vitest';
import { sqliteDatabase, testDatabases } from '../../../test/databases.js';
import { type EdgeHarness, eventually, inbox, P, rawPackets, startEdgeHarness } from './edge-test-kit.js';

/** A browser on a raw socket, subscribed to every device, that then stops reading. */
async function stalledBrowser(h: EdgeHarness, token: string, connections: number) {
  const { socket } = await h.rawSocket();
  if (!socket) throw new Error('no socket');
  socket.send(rawPackets.connect(`rt-stalled-${connections}`, token));
  socket.send(rawPackets.subscribe(1, `${P}/devices/#`));
  await eventually(() => h.edge.connections() === connections);
  await new Promise((resolve) => setTimeout(resolve, 100));
  // Its kernel buffers fill, then the broker's queue.
  socket.pause();
}

/** A raw socket subscribed to `filter`; every frame it receives, from CONNACK and SUBACK on. */
async function rawSubscriber(h: EdgeHarness, token: string, filter: string) {
  const { socket } = await h.rawSocket();
  if (!socket) throw new Error('no socket');
  const frames: Buffer[] = [];
  socket.on('message', (data: Buffer) => frames.push(data));
  socket.send(rawPackets.connect(`rt-raw-${Date.now()}`, token));
  socket.send(rawPackets.subscribe(1, filter));
  await eventually(() => frames.length === 2);
  return frames;
}

describe.each(testDatabases())('edge broker: a browser that stops reading ($name)', ({ create }) => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  it('is dropped while another browser keeps receiving every message', async () => {
    h = await startEdgeHarness(await create(), { maxQueuedBytes: 1024 * 1024 });
    const { token } = await h.user('resident');
    const fast = await h.connect({ token });
    const received = inbox(fast);
    await fast.subscribeAsync(`${P}/devices/#`);
    await stalledBrowser(h, token, 2);

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

  it('is dropped when its buffer stays full for the stall time, even with little traffic', async () => {
    h = await startEdgeHarness(await create(), { maxQueuedBytes: 64 * 1024, slowConsumerMs: 1000 });
    const { token } = await h.user('resident');
    await stalledBrowser(h, token, 1);
    // Enough to fill the loopback socket buffers, then a trickle: nothing near the hard cap.
    const payload = JSON.stringify({ blob: 'x'.repeat(16 * 1024) });
    const started = Date.now();
    for (let i = 0; h.edge.connections() === 1 && Date.now() - started < 15_000; i++) {
      await h.edge.publish(`devices/d${i % 100}`, payload);
      await new Promise((resolve) => setTimeout(resolve, i < 400 ? 1 : 50));
    }
    expect(h.edge.connections()).toBe(0);
    expect(h.app.logs.text).toContain('slow consumer');
  });
});

describe('edge broker: a burst of 10 000 device changes', () => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  /** A device object the size the hub announces (capabilities and inputs of a colour lamp). */
  const device = (i: number) =>
    JSON.stringify({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      external_id: `0x${i.toString(16).padStart(16, '0')}`,
      name: `Lamp ${i}`,
      online: true,
      state: { state: 'ON', brightness: i % 255, color_temp: 300, linkquality: 120 },
      capabilities: Array.from({ length: 8 }, (_, c) => ({
        id: `feature_${c}`,
        property: `feature_${c}`,
        name: `Feature ${c}`,
        kind: 'numeric',
        type: 'light',
        value_type: 'number',
        range: { min: 0, max: 254 },
        access: { readOnly: false, write: true, set: true, published: true, gettable: true },
      })),
    });

  it('keeps a browser reading at full speed connected, every message delivered', async () => {
    h = await startEdgeHarness(sqliteDatabase());
    const { token } = await h.user('resident');
    const browser = await h.connect({ token });
    const received = inbox(browser);
    await browser.subscribeAsync([`${P}/devices/#`, `${P}/events/#`]);
    let closed = false;
    browser.on('close', () => {
      closed = true;
    });

    // As the hub sends it when 10 000 devices change at once: a state message and an upsert each,
    // thousands per turn of the event loop (one read from the bus).
    const count = 10_000;
    for (let i = 0; i < count; i++) {
      void h.edge.publish(`devices/d${i}`, `{"state":"ON","brightness":${i % 255},"linkquality":120}`);
      void h.edge.publish('events/device.upsert', device(i));
      if (i % 2000 === 1999) await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(() => received.length === 2 * count || closed, 60_000);
    expect(closed).toBe(false);
    expect(received).toHaveLength(2 * count);
    expect(h.app.logs.text).not.toContain('slow consumer');
  }, 90_000);

  it('sends a burst as frames of at most 64 KB', async () => {
    h = await startEdgeHarness(sqliteDatabase());
    const { token } = await h.user('resident');
    const frames = await rawSubscriber(h, token, `${P}/events/#`);
    for (let i = 0; i < 2000; i++) void h.edge.publish('events/device.upsert', device(i));
    const total = 2000 * (device(0).length + 40);
    await eventually(() => frames.slice(2).reduce((sum, f) => sum + f.length, 0) >= total * 0.9, 20_000);
    expect(Math.max(...frames.map((f) => f.length))).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('edge broker: how packets become frames', () => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  it('sends each MQTT packet as one whole WebSocket frame, not a frame per chunk', async () => {
    h = await startEdgeHarness(sqliteDatabase());
    const { token } = await h.user('resident');
    const frames = await rawSubscriber(h, token, `${P}/devices/#`);
    await h.edge.publish('devices/lamp', '{"state":"ON","brightness":128}');
    await eventually(() => frames.length === 3);
    const publish = frames[2] as Buffer;
    const topic = `${P}/devices/lamp`;
    const payload = '{"state":"ON","brightness":128}';
    expect(publish[0]).toBe(0x30);
    expect(publish.length).toBe(2 + 2 + topic.length + payload.length);
    expect(publish.subarray(4 + topic.length).toString()).toBe(payload);
  });

  it.each([20, 200, 65_000, 200_000])(
    'delivers a %i-byte state whole, whatever length field its frame needs',
    async (size) => {
      h = await startEdgeHarness(sqliteDatabase());
      const { token } = await h.user('resident');
      const frames = await rawSubscriber(h, token, `${P}/devices/#`);
      const payload = `{"text":"${'é'.repeat(Math.floor((size - 11) / 2))}"}`;
      await h.edge.publish('devices/lamp', payload);
      await eventually(() => frames.length === 3);
      // The next frame is read whole too: the length field said where the first one ended.
      await h.edge.publish('devices/lamp', '{"state":"OFF"}');
      await eventually(() => frames.length === 4);
      const topic = `${P}/devices/lamp`;
      const [big, small] = [frames[2] as Buffer, frames[3] as Buffer];
      expect(big.subarray(big.length - Buffer.byteLength(payload)).toString()).toBe(payload);
      expect(small.subarray(small.length - 15).toString()).toBe('{"state":"OFF"}');
      expect(small.subarray(4, 4 + topic.length).toString()).toBe(topic);
    },
  );
});
