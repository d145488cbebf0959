import fs from 'node:fs';
import net from 'node:net';

// Below Linux's ephemeral range (32768-60999 by default), where the kernel picks the local port
// of every outgoing connection: a port taken from that range with listen(0) and closed again
// could be handed to some test's client socket before the test listened on it (EADDRINUSE).
const LOWEST = 20_000;
const SPAN = 12_000;

const listensOn = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A port nobody listens on right now, and no outgoing connection will be given. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = LOWEST + Math.floor(Math.random() * SPAN);
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port from ${LOWEST} to ${LOWEST + SPAN - 1}`);
}

/** Resolves once something accepts TCP connections on the port (or throws after `ms`). */
export async function waitForPort(port: number, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > end) throw new Error(`nothing listens on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A service a test owns and can take away and bring back on the same port. */
export interface RestartableService {
  url: string;
  port: number;
  /** Takes it away at once (SIGKILL, no goodbye to clients); resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers. A no-op while it runs. */
  start(): Promise<void>;
  /** Gone for good, its files too. */
  stop(): Promise<void>;
}

/** The service's handle: `stop` kills it and removes its directory. */
export function ownedService(
  url: string,
  port: number,
  lifecycle: { start(): Promise<void>; kill(): Promise<void> },
  dir: string,
): RestartableService {
  return {
    url,
    port,
    ...lifecycle,
    stop: async () => {
      await lifecycle.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
