import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './ports.js';

export interface OwnMosquitto {
  url: string;
  port: number;
  /** SIGKILLs the broker (no goodbye to clients); resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (retained messages survive only with `persistence`). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of the test's own (own configuration, free port), to kill and restart without
 * touching the machine's shared broker.
 */
export async function startOwnMosquitto(options: { persistence?: boolean } = {}): Promise<OwnMosquitto> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'set_tcp_nodelay true',
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
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    kill,
    start,
    stop: async () => {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
