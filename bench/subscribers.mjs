// Worker thread of startSubscribers (lib.mjs): `count` MQTT.js clients subscribed to `filter`
// (one or several), each timing publish → receive from the "bench_ts" field every benchmark message
// ends with; with `kinds` (topic → kind index) each latency's kind is kept beside it.
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

const { url, filter, password, count, kinds } = workerData;
const now = () => performance.timeOrigin + performance.now();
const latencies = [];
const kindOf = [];
/** Arrivals LATE_MS or more after their send, as [arrival (CLOCK_MONOTONIC ms), latency ms] (BENCH_LOOP). */
const LATE_MS = 10;
const late = [];
let received = 0;
const clients = await Promise.all(
  Array.from({ length: count }, (_, i) =>
    mqtt.connectAsync(url, {
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      clientId: `bench-${Date.now()}-${i}`,
      ...(password ? { username: 'bench', password } : {}),
    }),
  ),
);
for (const client of clients) {
  client.on('message', (topic, payload, packet) => {
    if (packet.retain) return;
    // The send time is found by its key (the last field of what the bench publishes; the hub may
    // put a discovery device's entities in another order); no JSON.parse of the whole state.
    const text = payload.toString('latin1');
    const at = text.lastIndexOf('"bench_ts":');
    if (at < 0) return;
    received++;
    const latency = now() - Number.parseFloat(text.slice(at + 11));
    latencies.push(latency);
    if (latency >= LATE_MS) late.push([Number(process.hrtime.bigint()) / 1e6, latency]);
    if (kinds) kindOf.push(kinds.get(topic) ?? 255);
  });
  await client.subscribeAsync(filter, { qos: 0 });
}
parentPort.on('message', async (message) => {
  if (message === 'collect') {
    parentPort.postMessage({
      received,
      latencies: Float64Array.from(latencies),
      late,
      ...(kinds ? { kinds: Uint8Array.from(kindOf) } : {}),
    });
    await Promise.all(clients.map((client) => client.endAsync(true)));
    process.exit(0);
  }
});
// Retained state (Hearth sends every device on subscribe) must be drained before measuring.
await new Promise((resolve) => setTimeout(resolve, 1000));
parentPort.postMessage('ready');
