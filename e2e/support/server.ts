import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { freePort } from '../../server/test/ports.js';

const root = path.resolve(import.meta.dirname, '../..');
export const serverEntry = path.join(root, 'server/dist/main.js');

export { freePort };

/** Credentials for the embedded broker's listener (MQTT_LISTEN_PORT), for tests that act as Zigbee2MQTT. */
export const BUS_LOGIN = {
  MQTT_LISTEN_USERNAME: 'zigbee2mqtt',
  MQTT_LISTEN_PASSWORD: 'e2e-bus-password',
} as const;
/** The same, as MQTT.js connect options. */
export const busLogin = {
  username: BUS_LOGIN.MQTT_LISTEN_USERNAME,
  password: BUS_LOGIN.MQTT_LISTEN_PASSWORD,
};

/** Everything a child process writes (stdout and stderr, interleaved), read when it is asked for. */
export function captureOutput(child: ChildProcess): () => string {
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return () => output;
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** The configuration it was started with (e.g. to start it again on the same port and data). */
  env: Record<string, string>;
  process: ChildProcess;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts the real built server (server/dist/main.js) on a free port with a fresh temporary
 * DATA_DIR, and resolves once it prints that it is ready.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(serverEntry)) {
    throw new Error(`${serverEntry} is missing: run "npm run build" first (npm test does)`);
  }
  const port = Number(env.PORT ?? (await freePort()));
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-'));
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '0',
      SIGNUP_RATE_LIMIT: '0',
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${output()}`)), 30_000);
    const check = () => {
      if (output().includes('Hearth is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready:\n${output()}`));
    });
  });

  return {
    url: `http://localhost:${port}`,
    port,
    dataDir,
    env,
    process: child,
    output,
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface BusServer extends RunningServer {
  /** The embedded broker's listener with BUS_LOGIN in the address: where a test acts as Zigbee2MQTT. */
  busUrl: string;
}

/**
 * startServer with the embedded broker's listener (MQTT_LISTEN_PORT, a free port unless `env`
 * names one) open to BUS_LOGIN, for tests that act as Zigbee2MQTT or watch what Hearth sends.
 */
export async function startServerWithBus(env: Record<string, string> = {}): Promise<BusServer> {
  const busPort = env.MQTT_LISTEN_PORT ?? String(await freePort());
  const server = await startServer({ MQTT_LISTEN_PORT: busPort, ...BUS_LOGIN, ...env });
  const { MQTT_LISTEN_USERNAME: username, MQTT_LISTEN_PASSWORD: password } = BUS_LOGIN;
  return Object.assign(server, { busUrl: `mqtt://${username}:${password}@127.0.0.1:${busPort}` });
}

/** A message Hearth sent on the bus: the JSON payload, or `{ raw }` when it is not JSON. */
export interface BusMessage {
  topic: string;
  payload: Record<string, unknown>;
}

/** Connects to the bus at `url` (e.g. BusServer.busUrl) and appends what arrives on `topics` to `into`. */
export async function watchBus(
  url: string,
  topics: string | string[],
  into: BusMessage[],
): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { protocolVersion: 4 });
  await client.subscribeAsync(topics);
  client.on('message', (topic, payload) => {
    try {
      into.push({ topic, payload: JSON.parse(payload.toString()) });
    } catch {
      into.push({ topic, payload: { raw: payload.toString() } });
    }
  });
  return client;
}

/** Runs the built server to completion (for start-up failures); resolves with code and output. */
export async function runServerToExit(env: Record<string, string>) {
  const child = spawn(process.execPath, [serverEntry], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}
