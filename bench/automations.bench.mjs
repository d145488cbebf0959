// Automations (issue 37, acceptance 5): 500 automations with state triggers beside 2000 devices
// cloned from real definitions (bench/real-devices.mjs) at 1000 updates/s. The device stream's p99
// (issue 10) is measured side by side with the same run without automations, each on a fresh
// Mosquitto and Hearth; and the time from a trigger message to the action's command on the bus.
// 475 of the automations watch the real devices' link quality for a value it never reaches (each
// message is compared, none fires); 25 watch a humidity sensor of their own that the bench raises
// above 70 and lowers again, one after another every 100 ms, and turn a plug on: the command's
// arrival on the bus, minus the sensor message's departure, is the trigger → command time.
// BENCH_SECONDS (default 20) sets how long each mode publishes; BENCH_RATE (default 1000) its rate;
// BENCH_MODES=on runs one mode (a profile, BENCH_NODE_ARGS).
import mqtt from 'mqtt';
import {
  api,
  cpuMs,
  hubDevices,
  machineGaps,
  mosquittoWebSocketLatency,
  percentile,
  report,
  signIn,
  sleep,
  startHearth,
  startMosquitto,
  startSubscribers,
} from './lib.mjs';
import { BENCH_TS_EXPOSE, publishFleet, publishStatesAt, realDevices } from './real-devices.mjs';

const DEVICES = 2000;
const AUTOMATIONS = 500;
const TRIPPED = 25;
const SUBSCRIBERS = 10;
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const GRACE_MS = 3000;
const TRIP_EVERY_MS = 100;
const BASE = 'zigbee2mqtt';
const P = 'hearth/devicehub';
const ADMIN = { email: 'bench@example.test', password: 'Hearth-bench-password-4711' };

const now = () => performance.timeOrigin + performance.now();
const round = (value) => Math.round(value * 10) / 10;
const name = (i) => `bench-device-${i}`;
const sensorName = (i) => `bench-humidity-${i}`;
const plugName = (i) => `bench-plug-${i}`;

const entry = (friendly, ieee, exposes) => ({
  ieee_address: ieee,
  friendly_name: friendly,
  type: 'Router',
  supported: true,
  interview_completed: true,
  definition: { model: 'BENCH', vendor: 'Bench', description: friendly, exposes },
});
const humiditySensor = (i) =>
  entry(sensorName(i), `0x00158d02${i.toString(16).padStart(8, '0')}`, [
    { type: 'numeric', name: 'humidity', property: 'humidity', access: 1, unit: '%' },
  ]);
const plug = (i) =>
  entry(plugName(i), `0x00158d03${i.toString(16).padStart(8, '0')}`, [
    {
      type: 'switch',
      features: [
        { type: 'binary', name: 'state', property: 'state', access: 7, value_on: 'ON', value_off: 'OFF' },
      ],
    },
  ]);

async function main() {
  const real = realDevices(DEVICES, { name, extraExposes: [BENCH_TS_EXPOSE] });
  const texts = [0, 1].map((seed) =>
    Array.from({ length: DEVICES }, (_, i) => JSON.stringify(real.state(i, seed)).slice(0, -1)),
  );
  const results = {};
  const modes = (process.env.BENCH_MODES ?? 'off,on').split(',');
  for (const mode of modes) {
    console.log(`\n== automations ${mode} ==`);
    results[mode] = await runMode(mode, real, texts);
  }
  if (!results.off || !results.on) return;
  const rows = [
    {
      // docs/devicehub.md#performance: the machine's own stalls, measured 3 s before each mode.
      metric: 'machine: CPU lost / gaps > 2 ms a second / longest',
      off: results.off.machine,
      on: results.on.machine,
    },
    { metric: 'stream p50 ms', off: results.off.p50, on: results.on.p50 },
    {
      metric: 'stream p99 ms',
      off: results.off.p99,
      on: results.on.p99,
      // Issue 37: issue 10's p99 holds with the automations (off is the same machine's reference).
      target: '≤ 5 (issue 10), on',
      ok: results.on.p99 <= 5,
    },
    {
      // The machine's floor in the same mode: when it is above 5 ms, no server's p99 is within it.
      metric: "stream p99 ms, Mosquitto's own WebSocket (issue 10's baseline, same load)",
      off: results.off.mosquitto_ws_p99,
      on: results.on.mosquitto_ws_p99,
    },
    { metric: 'delivered %', off: results.off.delivered, on: results.on.delivered },
    { metric: 'server CPU ms per 1000 updates', off: results.off.cpu, on: results.on.cpu },
    { metric: 'trigger → command p50 ms', on: results.on.trip.p50 },
    {
      metric: 'trigger → command p99 ms',
      on: results.on.trip.p99,
      target: '≤ 50',
      ok: results.on.trip.p99 <= 50,
    },
    { metric: 'commands seen', on: `${results.on.trip.count} of ${results.on.trip.tripped}` },
  ];
  report('automations', rows, {
    devices: DEVICES,
    automations: AUTOMATIONS,
    rate: RATE,
    seconds: SECONDS,
    subscribers: SUBSCRIBERS,
  });
}

async function runMode(mode, real, texts) {
  // The machine's own stalls just before this mode (its figures carry them).
  const machine = await machineGaps();
  const mosquitto = await startMosquitto({ settings: ['set_tcp_nodelay true'], websockets: true });
  const hearth = await startHearth({
    MQTT_URL: `mqtt://127.0.0.1:${mosquitto.port}`,
    SIMULATOR: 'off',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, {
    clientId: 'bench-z2m',
    protocolVersion: 4,
  });
  publisher.stream.setNoDelay?.(true);
  const watcher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, {
    clientId: 'bench-watch',
    protocolVersion: 4,
  });
  watcher.stream.setNoDelay?.(true);
  try {
    const token = (await signIn(hearth.url, ADMIN)).access_token;
    const fleet = {
      list: [
        ...real.list,
        ...Array.from({ length: TRIPPED }, (_, i) => humiditySensor(i)),
        ...Array.from({ length: TRIPPED }, (_, i) => plug(i)),
      ],
      state: (i) =>
        i < DEVICES ? real.state(i) : i < DEVICES + TRIPPED ? { humidity: 50 } : { state: 'OFF' },
    };
    await publishFleet(publisher, BASE, fleet);
    const devices = await hubDevices(hearth.url, token, DEVICES + 2 * TRIPPED, 120);
    const idOf = new Map(devices.map((device) => [device.name, device.id]));
    if (mode === 'on') {
      for (let i = 0; i < AUTOMATIONS; i++) {
        const tripped = i < TRIPPED;
        const body = tripped
          ? {
              name: `Bench humid ${i}`,
              triggers: [
                { type: 'state', device_id: idOf.get(sensorName(i)), property: 'humidity', above: 70 },
              ],
              actions: [{ type: 'device', device_id: idOf.get(plugName(i)), state: { state: 'ON' } }],
            }
          : {
              name: `Bench never ${i}`,
              triggers: [
                {
                  type: 'state',
                  device_id: idOf.get(name(i % DEVICES)),
                  property: 'linkquality',
                  above: 100_000,
                },
              ],
              actions: [{ type: 'device', device_id: idOf.get(plugName(0)), state: { state: 'OFF' } }],
            };
        const made = await api(hearth.url, 'POST', '/api/automations', body, token);
        if (made.status !== 201)
          throw new Error(`automation ${i}: ${made.status} ${JSON.stringify(made.data)}`);
      }
    }
    await sleep(5000);
    // The start's garbage (the device list parsed, the configs applied) is collected in the first
    // seconds of load; the stream's p99 of issue 10 is that of a running server, so the measured
    // window follows WARMUP_SECONDS of the same load (BENCH_WARMUP_SECONDS=0 measures from the start).
    if (WARMUP_SECONDS > 0) await publishAt(publisher, texts, WARMUP_SECONDS);

    const commands = [];
    await watcher.subscribeAsync(`${BASE}/+/set`);
    watcher.on('message', (topic) => commands.push({ topic, at: now() }));
    const subscribers = await startSubscribers({
      url: `${hearth.url.replace(/^http/, 'ws')}/ws/devicehub`,
      filter: `${P}/devices/#`,
      password: token,
      count: SUBSCRIBERS,
    });
    const cpuBefore = cpuMs(hearth.pid);
    const trips = mode === 'on' ? tripSensors(publisher) : undefined;
    const sent = await publishAt(publisher, texts);
    trips?.stop();
    await sleep(GRACE_MS);
    const cpu = cpuMs(hearth.pid) - cpuBefore;
    const { received, latencies } = await subscribers.collect();
    const sorted = latencies.slice().sort();
    // Issue 10's baseline next: the same load straight from Mosquitto's own WebSocket listener, to
    // as many subscribers, Hearth still reading the bus: what the machine allowed this mode.
    const mosquittoWs = await mosquittoWebSocketLatency({
      wsPort: mosquitto.wsPort,
      filter: `${BASE}/+`,
      count: SUBSCRIBERS,
      publish: () => publishAt(publisher, texts),
    });
    const result = {
      machine: `${machine.lostPct} % / ${machine.gapsPerS} / ${machine.maxMs} ms`,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      mosquitto_ws_p99: mosquittoWs.p99,
      mosquitto_ws_delivered: mosquittoWs.delivered,
      delivered: round((received / (sent * SUBSCRIBERS)) * 100),
      cpu: round((cpu * 1000) / sent),
      trip: { p50: null, p99: null, count: 0, tripped: 0 },
    };
    if (trips) {
      // Each trip's command: the first `/set` to its plug after the sensor's message left.
      const delays = [];
      for (const trip of trips.sent) {
        const command = commands.find(
          (each) => each.topic === `${BASE}/${plugName(trip.i)}/set` && each.at >= trip.at,
        );
        if (command) {
          delays.push(command.at - trip.at);
          commands.splice(commands.indexOf(command), 1);
        }
      }
      const order = Float64Array.from(delays).sort();
      result.trip = {
        p50: round(percentile(order, 50)),
        p99: round(percentile(order, 99)),
        count: delays.length,
        tripped: trips.sent.length,
      };
    }
    console.table(result);
    return result;
  } finally {
    await publisher.endAsync(true).catch(() => {});
    await watcher.endAsync(true).catch(() => {});
    await hearth.stop();
    await mosquitto.stop();
  }
}

/**
 * Raises one sensor after another above 70 (the trip, timed) and another back to 50 half-way to
 * its next turn: each sensor trips every 2.5 s, 24 times a minute, under the loop breaker's 30.
 */
function tripSensors(publisher) {
  const sent = [];
  let turn = 0;
  const timer = setInterval(() => {
    const i = turn % TRIPPED;
    turn++;
    publisher.publish(
      `${BASE}/${sensorName((i + Math.floor(TRIPPED / 2)) % TRIPPED)}`,
      JSON.stringify({ humidity: 50 }),
    );
    sent.push({ i, at: now() });
    publisher.publish(`${BASE}/${sensorName(i)}`, JSON.stringify({ humidity: 80 }));
  }, TRIP_EVERY_MS);
  return { sent, stop: () => clearInterval(timer) };
}

/** Whole device states round-robin at RATE per second for `seconds`; answers how many. */
const publishAt = (publisher, texts, seconds = SECONDS) =>
  publishStatesAt(publisher, { baseTopic: BASE, name, texts, rate: RATE, seconds });

await main();
