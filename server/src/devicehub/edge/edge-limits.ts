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
  /** Bytes a browser's socket may hold unsent; beyond, the broker holds frames back for it. */
  maxQueuedBytes: number;
  /** A browser whose socket stays above maxQueuedBytes this long has stopped reading: dropped. */
  slowConsumerMs: number;
  /** Bytes held back for one browser beyond which it is dropped at once (a burst it can't take). */
  maxPendingBytes: number;
  /** How long delivery may wait for a stalled socket to drain before the client is dropped. */
  drainTimeoutMs: number;
  /** How often connected users and sessions are re-read (lock, deletion, demotion, sign-out). */
  recheckIntervalMs: number;
}

export const DEFAULT_EDGE_LIMITS: EdgeLimits = {
  path: '/ws/devicehub',
  maxPacketBytes: 256 * 1024,
  maxTopicLevels: 16,
  connectTimeoutMs: 10_000,
  maxQueuedBytes: 2 * 1024 * 1024,
  slowConsumerMs: 5000,
  maxPendingBytes: 64 * 1024 * 1024,
  drainTimeoutMs: 10_000,
  // A revoked session's stream closes within 2 s even when another instance revoked it (one
  // interval plus the query); revocations on this instance close it at once.
  recheckIntervalMs: 1500,
};
