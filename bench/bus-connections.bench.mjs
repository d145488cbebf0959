// What Hearth's bus does against a Mosquitto that holds messages back (README, "set_tcp_nodelay"):
// a Zigbee2MQTT-like client publishes small state messages at BENCH_BUS_RATE/s (default 200)
// while "Hearth" subscribes and publishes commands at 20/s, on one connection or on two (one that
// only receives, one that only sends; what server/src/bus/bus.ts does with MQTT_URL). Figures are
// Zigbee2MQTT publish → Hearth receive, on a default Mosquitto and on one with set_tcp_nodelay.
import os from 'node:os';
import mqtt from 'mqtt';
import { percentile, report, sleep, startMosquitto } from './lib.mjs';

const RATE = Number(process.env.BENCH_BUS_RATE ?? 200);
const COMMANDS = 20;
const SECONDS = 8;

const connect = async (url) => {
  const client = await mqtt.connectAsync(url, { clean: true });
  client.stream.setNoDelay?.(true);
  return client;
};

async function run(url, split, qos = 0) {
  const zigbee2mqtt = await connect(url);
  const receiver = await connect(url);
  const sender = split ? await connect(url) : receiver;
  const latencies = [];
  receiver.on('message', (_topic, payload) => {
    latencies.push(performance.now() - Number(payload.toString().split(' ')[0]));
  });
  await receiver.subscribeAsync('zigbee2mqtt/#', { qos });
  const state = ` ${JSON.stringify({ state: 'ON', brightness: 200, linkquality: 100, color: { x: 0.3, y: 0.3 } })}`;
  const commands = setInterval(
    () => sender.publish('zigbee2mqtt/lamp/set', '{"state":"ON"}'),
    1000 / COMMANDS,
  );
  const end = performance.now() + SECONDS * 1000;
  for (let i = 0; performance.now() < end; i++) {
    zigbee2mqtt.publish(`zigbee2mqtt/device${i % 50}`, `${performance.now()}${state}`);
    await sleep(1000 / RATE);
  }
  clearInterval(commands);
  await sleep(200);
  await Promise.all([zigbee2mqtt, receiver, ...(split ? [sender] : [])].map((client) => client.endAsync()));
  const sorted = latencies.filter((ms) => ms >= 0).sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    messages: sorted.length,
    'p50 ms': round(percentile(sorted, 50)),
    'p90 ms': round(percentile(sorted, 90)),
    'p99 ms': round(percentile(sorted, 99)),
  };
}

const rows = [];
for (const nodelay of [false, true]) {
  const broker = await startMosquitto({
    settings: [`user ${os.userInfo().username}`, ...(nodelay ? ['set_tcp_nodelay true'] : [])],
  });
  for (const [split, qos, hearth] of [
    [false, 0, 'one connection'],
    // Zigbee2MQTT publishes at QoS 0, so a QoS 1 subscription still receives QoS 0: no PUBACK to carry the ACK.
    [false, 1, 'one connection, QoS 1 subscription'],
    [true, 0, 'two connections (receive / send)'],
  ]) {
    rows.push({
      broker: nodelay ? 'Mosquitto, set_tcp_nodelay true' : 'Mosquitto, default',
      hearth,
      ...(await run(broker.url, split, qos)),
    });
  }
  await broker.stop();
}
report('bus-connections', rows, { ratePerSecond: RATE, commandsPerSecond: COMMANDS, seconds: SECONDS });
process.exit(0);
