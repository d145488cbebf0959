import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.js';
import type { UserRecord } from '../../users/users.repository.js';

/** A command a browser published on P/commands/device.set or P/commands/device.rename. */
export type EdgeCommand =
  | { kind: 'device.set'; payload: unknown }
  | { kind: 'device.rename'; payload: unknown };

/**
 * The MQTT-over-WebSocket broker browsers connect to at /ws/devicehub (DESIGN.md "Device hub").
 * Topics passed to publish() are relative to P = `${DEVICEHUB_TOPIC_PREFIX}/devicehub`, e.g.
 * `devices/<id>` or `events/device.upsert`.
 */
export interface EdgeBroker {
  publish(topic: string, payload: string | Buffer, options?: { retain?: boolean }): Promise<void>;
  /** Handles commands browsers publish; the user is the signed-in resident/admin who sent it. */
  onCommand(handler: (command: EdgeCommand, user: UserRecord) => void | Promise<void>): void;
  /** Number of connected browser clients. */
  connections(): number;
  close(): Promise<void>;
}

/** Placeholder until the edge broker lands: accepts publishes and never delivers commands. */
export async function createEdgeBroker(_app: FastifyInstance, _context: AppContext): Promise<EdgeBroker> {
  return {
    publish: async () => {},
    onCommand: () => {},
    connections: () => 0,
    close: async () => {},
  };
}
