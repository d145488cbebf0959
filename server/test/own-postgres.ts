import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, ownedService, type RestartableService, waitForPort } from './ports.js';

/** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication); crash recovery on start. */
export type OwnPostgres = RestartableService;

/** The newest PostgreSQL server binaries on this machine (Debian keeps them per major version). */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const version = versions.at(-1);
  if (!version) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return path.join(root, version, 'bin');
}

/**
 * A PostgreSQL cluster of the test's own (`initdb` into a temporary directory, a free port), to
 * kill and restart without touching the machine's shared server. PostgreSQL refuses to run as
 * root, so as root it runs as the `postgres` user.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binaries();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const command = (file: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    fs.chownSync(dir, uid, gid);
  }
  execFileSync(
    ...command(path.join(bin, 'initdb'), [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
    ]),
    { stdio: 'ignore' },
  );

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const [file, args] = command(path.join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      // A process crash keeps what the OS has; only a machine crash would need fsync.
      '-c',
      'fsync=off',
    ]);
    // Its own process group, so that a kill reaches the server and every backend at once.
    const proc = spawn(file, args, {
      stdio: ['ignore', 'ignore', process.env.PG_DEBUG ? 'inherit' : 'ignore'],
      detached: true,
    });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    await Promise.race([
      acceptsQueries(`postgres://postgres@127.0.0.1:${port}/postgres`),
      exited.then(() => {
        throw new Error('PostgreSQL exited at start (PG_DEBUG=1 shows why)');
      }),
    ]);
  };
  const kill = async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await exited;
    // Backends notice their server's death on their own; wait until none holds the port.
    for (let i = 0; i < 100 && (await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 50));
    // The killed server may linger as a zombie (in a container nobody reaps it), and its pid file
    // would then make the next start believe it still runs.
    for (const lock of [path.join(data, 'postmaster.pid'), path.join(dir, `.s.PGSQL.${port}.lock`)])
      fs.rmSync(lock, { force: true });
  };
  await start();
  return ownedService(`postgres://postgres@127.0.0.1:${port}/postgres`, port, { start, kill }, dir);
}

/** Resolves once the server answers a query (it listens already while recovering from a crash). */
async function acceptsQueries(url: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

async function portOpen(port: number): Promise<boolean> {
  try {
    await waitForPort(port, 0);
    return true;
  } catch {
    return false;
  }
}
