import { afterAll, describe, expect, it } from 'vitest';
import { LogCapture, useTestApp } from '../../test/app.js';
import { type RestartableBroker, startOwnMosquitto, useOwnMosquitto } from '../../test/restartable-broker.js';
import { serviceUrl } from '../../test/services.js';
import { waitFor } from '../../test/wait.js';
import { createLogger } from '../logging/logger.js';
import { type Bus, connectBus } from './bus.js';
import { BusProbe } from './bus-probe.js';

// Two Mosquittos of the test's own, so that one can keep Mosquitto's default (Nagle's algorithm on).
const mosquitto = serviceUrl('TEST_MQTT_URL');
if (!mosquitto) console.warn('[skipped] the bus probe against own Mosquittos: TEST_MQTT_URL is not set');
const configurations = mosquitto
  ? [
      { name: 'a default Mosquitto', nodelay: false, warns: true },
      { name: 'a Mosquitto with set_tcp_nodelay true', nodelay: true, warns: false },
    ]
  : [];

const warnings = (logs: LogCapture) =>
  logs.lines
    .map((line) => JSON.parse(line))
    .filter((entry) => String(entry.msg).includes('set_tcp_nodelay true'));

// A loaded machine (the whole suite at once) can keep the first probes from a verdict for a while.
const eventually = <T>(read: () => Promise<T | undefined>) => waitFor(read, 40_000, 100);

describe.each(configurations)('Hearth against $name', ({ nodelay, warns }) => {
  const broker = useOwnMosquitto({ nodelay });
  const t = useTestApp({ env: () => ({ MQTT_URL: broker.url }) });

  it(`${warns ? 'warns' : 'does not warn'} about held-back messages in the log, /healthz and the admin's device hub status`, async () => {
    // The first probe runs as soon as the bus is up; while Hearth is still busy starting, it gives
    // no verdict and the probe runs again a few seconds later.
    const healthz = async () => (await t.app.inject('/healthz')).json();
    await eventually(async () => ((await healthz()).details.bus_round_trip_ms === null ? undefined : true));
    if (warns) await eventually(async () => ((await healthz()).details.bus_delay_warning ? true : undefined));
    else await new Promise((resolve) => setTimeout(resolve, 5000));
    const health = await healthz();
    expect(health.details.bus_delay_warning).toBe(warns);
    if (warns) expect(health.details.bus_round_trip_ms).toBeGreaterThan(20);
    else expect(health.details.bus_round_trip_ms).toBeLessThanOrEqual(20);

    const logged = warnings(t.hearth.logs);
    expect(logged).toHaveLength(warns ? 1 : 0);
    if (warns)
      expect(logged[0]).toMatchObject({ level: 40, busRoundTripMs: health.details.bus_round_trip_ms });

    const admin = await t.call(await t.user('admin'), 'GET', '/api/devicehub/status');
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ bus: 'online', bus_delay_warning: warns });
    expect(admin.body.bus_round_trip_ms).toEqual(expect.any(Number));

    // Residents see the Devices page but not the broker's configuration.
    const resident = await t.call(await t.user('resident'), 'GET', '/api/devicehub/status');
    expect(resident.status).toBe(200);
    expect(Object.keys(resident.body).sort()).toEqual(['bridge', 'bus', 'since']);
  }, 60_000);
});

describe('the bus probe', () => {
  const started: { bus: Bus; probe: BusProbe; broker?: RestartableBroker }[] = [];
  afterAll(async () => {
    for (const { bus, probe, broker } of started) {
      await probe.close();
      await bus.close();
      await broker?.stop();
    }
  }, 90_000);

  async function probing(options: {
    nodelay?: boolean;
    embedded?: boolean;
    idleEventLoopMs?: number;
    retryMs?: number;
  }) {
    const logs = new LogCapture();
    const log = createLogger('info', logs);
    const broker = options.embedded
      ? undefined
      : await startOwnMosquitto({ nodelay: options.nodelay ?? true });
    const bus = await connectBus({ mqttUrl: broker?.url, log });
    const topic = `hearth/probe/${crypto.randomUUID()}`;
    const probe = new BusProbe({
      bus,
      topic,
      log,
      ...(options.idleEventLoopMs === undefined ? {} : { idleEventLoopMs: options.idleEventLoopMs }),
      ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
    });
    started.push({ bus, probe, ...(broker ? { broker } : {}) });
    probe.start();
    await eventually(async () => (probe.latest.bus_round_trip_ms === null ? undefined : true));
    return { probe, logs, bus, topic };
  }

  it('never warns about the embedded broker', async () => {
    const { probe, logs } = await probing({ embedded: true, idleEventLoopMs: Number.POSITIVE_INFINITY });
    await probe.probe();
    expect(probe.latest.bus_delay_warning).toBe(false);
    expect(warnings(logs)).toHaveLength(0);
  });

  it.skipIf(!mosquitto)('logs its warning once per process, however many probes find the delay', async () => {
    const { probe, logs } = await probing({ nodelay: false });
    // A probe while the machine is busy gives no verdict; it probes again until one comes.
    await eventually(async () => probe.latest.bus_delay_warning || undefined);
    await probe.probe();
    await probe.probe();
    expect(probe.latest).toMatchObject({ bus_delay_warning: true });
    expect(warnings(logs)).toHaveLength(1);
  });

  it.skipIf(!mosquitto)(
    'gives no verdict while the machine is busy (event-loop delay above the limit)',
    async () => {
      const { probe, logs } = await probing({ nodelay: false, idleEventLoopMs: 0 });
      expect(probe.latest.bus_round_trip_ms).toBeGreaterThan(20);
      expect(probe.latest.bus_delay_warning).toBe(false);
      expect(warnings(logs)).toHaveLength(0);
    },
  );

  it('keeps probing a busy machine until a first verdict, however long that takes', async () => {
    const { probe, bus, topic } = await probing({ embedded: true, idleEventLoopMs: 0, retryMs: 10 });
    let pairs = 0;
    const remove = await bus.subscribe(topic, (_topic, payload) => {
      if (payload.toString().endsWith('b')) pairs++;
    });
    // Five rounds a probe: well beyond the five retries that follow a verdict.
    await waitFor(() => pairs >= 5 * 12 || undefined, 20_000);
    remove();
    expect(probe.latest.bus_delay_warning).toBe(false);
  });
});

describe.skipIf(!mosquitto)('what Hearth does from its own side against a default Mosquitto', () => {
  const broker = useOwnMosquitto({ nodelay: false });

  /** Median round trip of the second of two messages published back to back, 10 rounds in a row. */
  async function pairs(bus: Bus) {
    const topic = `hearth/pairs/${crypto.randomUUID()}`;
    const waiting = new Map<string, () => void>();
    const remove = await bus.subscribe(topic, (_topic, payload) => waiting.get(payload.toString())?.());
    const trips: number[] = [];
    for (let round = 0; round < 10; round++) {
      const started = performance.now();
      const arrived = new Promise<void>((resolve) => waiting.set(`${round}b`, resolve));
      await Promise.all([bus.publish(topic, `${round}a`), bus.publish(topic, `${round}b`)]);
      await arrived;
      trips.push(performance.now() - started);
    }
    remove();
    return trips.sort((a, b) => a - b)[5] ?? 0;
  }

  it('receives on a connection that never sends, so the broker does not hold messages back', async () => {
    const log = createLogger('silent');
    const split = await connectBus({ mqttUrl: broker.url, log });
    const shared = await connectBus({ mqttUrl: broker.url, log, splitConnections: false });
    try {
      const [fast, slow] = [await pairs(split), await pairs(shared)];
      // One shared connection: Linux delays its ACKs (it waits to piggyback them on Hearth's own
      // sends) and Mosquitto's Nagle waits for them, about 40 ms per pair.
      expect(slow, `one connection: ${slow.toFixed(1)} ms`).toBeGreaterThan(20);
      expect(fast, `two connections: ${fast.toFixed(1)} ms`).toBeLessThan(20);
    } finally {
      await split.close();
      await shared.close();
    }
  });
});
