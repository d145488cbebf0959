import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  type EmbeddedBroker,
  generatedCredentials,
  startEmbeddedBroker,
} from '../src/bus/embedded-broker.js';
import { createLogger } from '../src/logging/logger.js';
import { freePort, ownedService, type RestartableService, waitForPort } from './ports.js';
import { serviceUrl } from './services.js';

/** A broker a test can take away and bring back (retained messages survive only Mosquitto with `persistence`). */
export type RestartableBroker = RestartableService;

/**
 * A Mosquitto of the test's own (own configuration, free port), to kill and restart without
 * touching the machine's shared broker. It sets `set_tcp_nodelay true` unless `nodelay: false`.
 */
export async function startOwnMosquitto(
  options: { persistence?: boolean; nodelay?: boolean } = {},
): Promise<RestartableBroker> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      // Mosquitto's default is off (Nagle's algorithm); `nodelay: false` keeps that default.
      ...(options.nodelay === false ? [] : ['set_tcp_nodelay true']),
      // Run as whoever started it (root in CI) instead of switching to a "mosquitto" user.
      `user ${os.userInfo().username}`,
      `persistence ${options.persistence ? 'true' : 'false'}`,
      `persistence_location ${dir}/`,
      'autosave_interval 1',
      'log_dest none',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const proc = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    await waitForPort(port);
  };
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  await start();
  return ownedService(`mqtt://127.0.0.1:${port}`, port, { start, kill }, dir);
}

/**
 * A Mosquitto of the suite's own (startOwnMosquitto), started in beforeAll and stopped in afterAll.
 * Call it at describe level before the fixture that connects to it (useTestApp, useE2e): vitest
 * runs afterAll hooks in reverse, so the broker outlives what uses it.
 */
export function useOwnMosquitto(options: { persistence?: boolean; nodelay?: boolean } = {}): {
  readonly url: string;
} {
  let broker: RestartableBroker | undefined;
  beforeAll(async () => {
    broker = await startOwnMosquitto(options);
  });
  afterAll(async () => {
    await broker?.stop();
  });
  return {
    get url() {
      if (!broker) throw new Error('the own Mosquitto exists from beforeAll on');
      return broker.url;
    },
  };
}

/**
 * The embedded broker (Aedes, in this process) on a fixed port, so that it can come back there.
 * Its URL carries the credentials of its listener, which allows every topic.
 */
export async function startRestartableEmbeddedBroker(): Promise<RestartableBroker> {
  const port = await freePort();
  const log = createLogger('silent');
  const credentials = generatedCredentials('test');
  let broker: EmbeddedBroker | undefined;
  const start = async () => {
    if (broker) return;
    broker = await startEmbeddedBroker({
      internal: generatedCredentials(),
      external: { host: '127.0.0.1', port, credentials, topicRoots: ['#'] },
      log,
    });
  };
  const kill = async () => {
    await broker?.close();
    broker = undefined;
  };
  await start();
  const url = `mqtt://${credentials.username}:${credentials.password}@127.0.0.1:${port}`;
  return { url, port, kill, start, stop: kill };
}

/**
 * The brokers every outage suite runs on: the embedded one, and an own Mosquitto when Mosquitto
 * is on this machine (TEST_MQTT_URL set; never the shared one itself).
 */
export function restartableBrokers(): { name: string; start: () => Promise<RestartableBroker> }[] {
  const mosquitto = serviceUrl('TEST_MQTT_URL');
  if (!mosquitto) console.warn('[skipped] outages of an own Mosquitto: TEST_MQTT_URL is not set');
  return [
    { name: 'embedded broker', start: startRestartableEmbeddedBroker },
    ...(mosquitto ? [{ name: 'own Mosquitto', start: () => startOwnMosquitto() }] : []),
  ];
}
