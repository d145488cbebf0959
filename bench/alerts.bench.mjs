// Alerts (issue 36, acceptance 5): with 2000 devices cloned from real definitions (bench/real-devices.mjs)
// and alerts on, the device stream's p99 (issue 10) holds — measured side by side with alerts off,
// each on a fresh Mosquitto and Hearth — and an incident reaches a push service of our own
// (bench/push-service.mjs, HTTPS on 127.0.0.1) within 1 s of the message that trips it (p99).
// The real states are a household's (bench/real-devices.mjs): readings change with every message,
// safety alarms (water_leak, smoke, gas, carbon_monoxide, tamper) stay clear and each battery at its
// own level, some of them low: with alerts on, the battery and safety rules are evaluated on the
// stream's path for every message that carries them; the leaks the bench trips are its own sensors'.
// A third mode, `storm`, measures what the target does not cover: every alarm and battery
// of those devices alternating with each message (an incident opened or resolved per message of
// many of them, hundreds a minute), reported beside the others without a target.
// BENCH_SECONDS (default 20) sets how long each mode publishes; BENCH_RATE (default 1000) its rate;
// BENCH_MODES (default off,on,storm) which modes run.
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
import { startPushService } from './push-service.mjs';
import {
  BENCH_TS_EXPOSE,
  publishFleet,
  publishStatesAt,
  realDevices,
  SAFETY_ALARMS,
} from './real-devices.mjs';

const DEVICES = 2000;
const LEAK_SENSORS = 60;
const SUBSCRIBERS = 10;
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const GRACE_MS = 3000;
/** A leak every this often while the stream runs (alerts on only). */
const LEAK_EVERY_MS = 250;
const BASE = 'zigbee2mqtt';
const P = 'hearth/devicehub';
const ADMIN = { email: 'bench@example.test', password: 'Hearth-bench-password-4711' };
const OFF = {
  offline_after_minutes: null,
  battery_below: null,
  safety: false,
  hub: false,
  repeat_critical_minutes: 15,
};
const ON = {
  offline_after_minutes: 10,
  battery_below: 15,
  safety: true,
  hub: true,
  repeat_critical_minutes: 15,
};

const round = (value) => Math.round(value * 10) / 10;
const name = (i) => `bench-device-${i}`;
const leakName = (i) => `bench-leak-${i}`;

/** A water leak sensor in Zigbee2MQTT's format. */
const leakSensor = (i) => ({
  ieee_address: `0x00158d01${i.toString(16).padStart(8, '0')}`,
  friendly_name: leakName(i),
  type: 'EndDevice',
  network_address: 9000 + i,
  supported: true,
  disabled: false,
  interview_completed: true,
  interviewing: false,
  power_source: 'Battery',
  definition: {
    model: 'SJCGQ11LM',
    vendor: 'Aqara',
    description: 'Water leak sensor',
    supports_ota: false,
    options: [],
    exposes: [
      {
        type: 'binary',
        name: 'water_leak',
        property: 'water_leak',
        access: 1,
        value_on: true,
        value_off: false,
      },
      { type: 'numeric', name: 'battery', property: 'battery', access: 1, unit: '%' },
    ],
  },
});

const MODES = (process.env.BENCH_MODES ?? 'off,on,storm').split(',');

async function main() {
  const real = realDevices(DEVICES, { name, extraExposes: [BENCH_TS_EXPOSE] });
  const stormy = realDevices(DEVICES, { name, extraExposes: [BENCH_TS_EXPOSE], flapping: true });
  const flapping = Array.from({ length: DEVICES }, (_, i) => i).filter((i) =>
    [...SAFETY_ALARMS, 'battery', 'battery_low'].some((alarm) => alarm in real.state(i)),
  ).length;
  // Two whole states per device, alternating, made before the clock runs (the publisher stays cheap).
  const textsOf = (stateOf) =>
    [0, 1].map((seed) =>
      Array.from({ length: DEVICES }, (_, i) => JSON.stringify(stateOf(i, seed)).slice(0, -1)),
    );
  // The storm mode's fleet flaps; off and on share the household's.
  const fleetOf = (mode) => (mode === 'storm' ? stormy : real);
  const texts = new Map([real, stormy].map((fleet) => [fleet, textsOf(fleet.state)]));
  const push = await startPushService();
  const results = {};
  try {
    for (const mode of MODES) {
      console.log(`\n== alerts ${mode} ==`);
      results[mode] = await runMode(mode, fleetOf(mode), texts.get(fleetOf(mode)), push);
    }
  } finally {
    await push.stop();
  }
  const { off = {}, on = {}, storm = {} } = results;
  const rows = [
    {
      // docs/devicehub.md#performance: the machine's own stalls, measured 3 s before each mode.
      metric: 'machine: CPU lost / gaps > 2 ms a second / longest',
      off: off.machine,
      on: on.machine,
      storm: storm.machine,
    },
    { metric: 'stream p50 ms', off: off.p50, on: on.p50, storm: storm.p50 },
    {
      metric: 'stream p99 ms',
      off: off.p99,
      on: on.p99,
      storm: storm.p99,
      target: '≤ 5 (issue 10), on',
      ok: on.p99 === undefined ? undefined : on.p99 <= 5,
    },
    {
      // The machine's floor in the same mode: when it is above 5 ms, no server's p99 is within it.
      metric: "stream p99 ms, Mosquitto's own WebSocket (issue 10's baseline, same load)",
      off: off.mosquitto_ws_p99,
      on: on.mosquitto_ws_p99,
      storm: storm.mosquitto_ws_p99,
    },
    { metric: 'stream max ms', off: off.max, on: on.max, storm: storm.max },
    { metric: 'delivered %', off: off.delivered, on: on.delivered, storm: storm.delivered },
    { metric: 'server CPU ms per 1000 updates', off: off.cpu, on: on.cpu, storm: storm.cpu },
    { metric: 'incident → push p50 ms', on: on.push?.p50, storm: storm.push?.p50 },
    {
      metric: 'incident → push p99 ms',
      on: on.push?.p99,
      storm: storm.push?.p99,
      target: '≤ 1000, on',
      ok: on.push ? on.push.p99 <= 1000 : undefined,
    },
    {
      metric: 'incidents pushed',
      on: on.push && `${on.push.count} of ${on.push.tripped}`,
      storm: storm.push && `${storm.push.count} of ${storm.push.tripped}`,
    },
  ];
  report('alerts', rows, {
    devices: DEVICES,
    rate: RATE,
    seconds: SECONDS,
    subscribers: SUBSCRIBERS,
    storm_devices: flapping,
  });
}

async function runMode(mode, fleet, texts, push) {
  // The machine's own stalls just before this mode (its figures carry them).
  const machine = await machineGaps();
  const mosquitto = await startMosquitto({ settings: ['set_tcp_nodelay true'], websockets: true });
  const hearth = await startHearth({
    MQTT_URL: `mqtt://127.0.0.1:${mosquitto.port}`,
    SIMULATOR: 'off',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NODE_EXTRA_CA_CERTS: push.certFile,
    PUSH_ALLOW_PRIVATE_ENDPOINTS: '1',
  });
  const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, {
    clientId: 'bench-z2m',
    protocolVersion: 4,
  });
  publisher.stream.setNoDelay?.(true);
  try {
    const token = (await signIn(hearth.url, ADMIN)).access_token;
    const settings = await api(hearth.url, 'PUT', '/api/alerts/settings', mode === 'off' ? OFF : ON, token);
    if (settings.status !== 200)
      throw new Error(`alert settings: ${settings.status} ${JSON.stringify(settings.data)}`);
    const subscription = push.subscribe(`bench-${mode}`);
    const subscribed = await api(hearth.url, 'POST', '/api/push/subscriptions', subscription, token);
    if (subscribed.status !== 201)
      throw new Error(`push subscription: ${subscribed.status} ${JSON.stringify(subscribed.data)}`);
    const withLeaks = {
      list: [...fleet.list, ...Array.from({ length: LEAK_SENSORS }, (_, i) => leakSensor(i))],
      state: (i) => (i < DEVICES ? fleet.state(i, 0) : { water_leak: false, battery: 90 }),
    };
    await publishFleet(publisher, BASE, withLeaks);
    await hubDevices(hearth.url, token, DEVICES + LEAK_SENSORS, 120);
    // What the start set off (retained states evaluated, the first batteries low) settles first.
    await sleep(5000);
    // The start's garbage (the device list parsed, the configs applied) is collected in the first
    // seconds of load; the stream's p99 of issue 10 is that of a running server, so the measured
    // window follows WARMUP_SECONDS of the same load (BENCH_WARMUP_SECONDS=0 measures from the start).
    if (WARMUP_SECONDS > 0) await publishAt(publisher, texts, WARMUP_SECONDS);

    const subscribers = await startSubscribers({
      url: `${hearth.url.replace(/^http/, 'ws')}/ws/devicehub`,
      filter: `${P}/devices/#`,
      password: token,
      count: SUBSCRIBERS,
    });
    const cpuBefore = cpuMs(hearth.pid);
    const tripped = new Map();
    const leaks = mode === 'off' ? undefined : tripLeaks(publisher, tripped);
    const sent = await publishAt(publisher, texts);
    leaks?.stop();
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
      max: round(sorted.at(-1) ?? 0),
      delivered: round((received / (sent * SUBSCRIBERS)) * 100),
      cpu: round((cpu * 1000) / sent),
      push: { p50: null, p99: null, count: 0, tripped: tripped.size },
    };
    if (mode !== 'off') {
      // Each leak's push: the first message whose decrypted title names the sensor.
      const delays = [];
      for (const message of push.to(`bench-${mode}`)) {
        const { title } = push.decrypt(message);
        const match = /^(bench-leak-\d+): Leak detected$/.exec(title);
        const at = match && tripped.get(match[1]);
        if (at !== undefined && at !== null) {
          delays.push(message.at - at);
          tripped.set(match[1], null);
        }
      }
      const order = Float64Array.from(delays).sort();
      result.push = {
        p50: round(percentile(order, 50)),
        p99: round(percentile(order, 99)),
        count: delays.length,
        tripped: tripped.size,
      };
    }
    console.table(result);
    return result;
  } finally {
    await publisher.endAsync(true).catch(() => {});
    await hearth.stop();
    await mosquitto.stop();
  }
}

/** Trips one leak sensor after another while the stream runs; notes when each message left. */
function tripLeaks(publisher, tripped) {
  let next = 0;
  const timer = setInterval(() => {
    if (next >= LEAK_SENSORS) return;
    const sensor = leakName(next++);
    tripped.set(sensor, Date.now());
    publisher.publish(`${BASE}/${sensor}`, JSON.stringify({ water_leak: true, battery: 90 }));
  }, LEAK_EVERY_MS);
  return { stop: () => clearInterval(timer) };
}

/** Whole device states round-robin at RATE per second for `seconds`; answers how many. */
const publishAt = (publisher, texts, seconds = SECONDS) =>
  publishStatesAt(publisher, { baseTopic: BASE, name, texts, rate: RATE, seconds });

await main();
