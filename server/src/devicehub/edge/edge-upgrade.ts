import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { UpgradeVerdict } from './edge-auth.js';

const refuse = (socket: Duplex, status: number, error: string) => {
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
};

/**
 * Takes WebSocket upgrades on `path` of the HTTP server, after `check` accepted them; requests
 * for other paths are left to other listeners (or refused when there is none).
 */
export function listenForUpgrades(options: {
  server: Server;
  path: string;
  maxPayload: number;
  log: Logger;
  check: (request: IncomingMessage) => Promise<UpgradeVerdict>;
  onSocket: (
    socket: WebSocket,
    request: IncomingMessage,
    verdict: UpgradeVerdict & { allowed: true },
  ) => void;
}): { sockets: () => Set<WebSocket>; stop(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload,
    perMessageDeflate: false,
    clientTracking: true,
    handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : false),
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname !== options.path) {
      if (options.server.listenerCount('upgrade') === 1) refuse(socket, 404, 'Not Found');
      return;
    }
    socket.on('error', () => socket.destroy());
    options
      .check(request)
      .then((verdict) => {
        if (!verdict.allowed) return refuse(socket, verdict.status, verdict.error);
        if (socket.destroyed) return;
        wss.handleUpgrade(request, socket, head, (ws) => options.onSocket(ws, request, verdict));
      })
      .catch((error: unknown) => {
        options.log.error({ err: error }, 'edge broker upgrade failed');
        refuse(socket, 500, 'Internal Server Error');
      });
  };

  options.server.on('upgrade', onUpgrade);
  return {
    sockets: () => wss.clients,
    stop: () => {
      options.server.off('upgrade', onUpgrade);
      wss.close();
    },
  };
}
