import fs from 'node:fs';
import net from 'node:net';

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

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
