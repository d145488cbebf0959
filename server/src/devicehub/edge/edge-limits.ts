/** The edge broker's limits (issue 4, "Edge broker for browsers"). */
export interface EdgeLimits {
  /** WebSocket path on the HTTP server. */
  path: string;
  /** Largest MQTT packet a browser may send, fixed header included. */
  maxPacketBytes: number;
  /** Most levels in a topic or filter. */
  maxTopicLevels: number;
  /** A socket that sends no CONNECT within this time is closed. */
  connectTimeoutMs: number;
  /** Bytes that may wait for a browser that stopped reading before it is dropped. */
  maxQueuedBytes: number;
  /** How long delivery may wait for a stalled socket to drain before the client is dropped. */
  drainTimeoutMs: number;
  /** How often connected users are re-read from the database (lock, deletion, demotion). */
  recheckIntervalMs: number;
}

export const DEFAULT_EDGE_LIMITS: EdgeLimits = {
  path: '/ws/devicehub',
  maxPacketBytes: 256 * 1024,
  maxTopicLevels: 16,
  connectTimeoutMs: 10_000,
  maxQueuedBytes: 2 * 1024 * 1024,
  drainTimeoutMs: 10_000,
  // Half the promised 60 s, so a lock takes effect within one interval plus the query.
  recheckIntervalMs: 30_000,
};
