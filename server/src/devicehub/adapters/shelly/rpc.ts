import type { Logger } from 'pino';
import type { Bus } from '../../../bus/bus.js';
import type { JsonObject } from '../../../shared/json.js';
import { parseReply, requestFrame } from './frames.js';

/** How long a request waits for its reply. */
export const RPC_TIMEOUT_MS = 5000;
/** Most requests waiting for their replies at once. */
export const MAX_IN_FLIGHT = 1000;
/** Replies larger than this are skipped. */
const MAX_REPLY_BYTES = 256 * 1024;

/** The device answered with an error (`{"error": {"code", "message"}}`). */
export class RpcError extends Error {
  constructor(
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** No reply came in time. */
export class RpcTimeout extends Error {
  override name = 'RpcTimeout';
}

/** Too many requests are waiting already. */
export class RpcBusy extends Error {
  override name = 'RpcBusy';
}

interface Waiting {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * JSON-RPC to Shelly devices over MQTT: a request goes to `<prefix>/rpc` with Hearth's own `src`,
 * and its reply comes on `<src>/rpc`, matched by id; an error reply or none within the timeout
 * rejects.
 */
export class ShellyRpc {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly bus: Bus,
    /** Hearth's `src`: its replies come on `<src>/rpc`. */
    readonly src: string,
    private readonly log: Logger,
    private readonly timeoutMs = RPC_TIMEOUT_MS,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {}

  async start() {
    this.unsubscribe = await this.bus.subscribe(`${this.src}/rpc`, (_topic, payload) =>
      this.onReply(payload),
    );
  }

  stop() {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new RpcTimeout('stopped'));
      this.waiting.delete(id);
    }
  }

  /** How many requests wait for their replies. */
  inFlight(): number {
    return this.waiting.size;
  }

  /** Sends `method` to the device at `prefix`; resolves with its result. */
  async call(
    prefix: string,
    method: string,
    params?: JsonObject,
    timeoutMs = this.timeoutMs,
  ): Promise<unknown> {
    if (this.waiting.size >= this.maxInFlight) throw new RpcBusy('too many requests in flight');
    const id = this.nextId++;
    if (this.nextId > 2 ** 31) this.nextId = 1;
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new RpcTimeout(`${method} to ${prefix} was not answered within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      this.waiting.set(id, { resolve, reject, timer });
    });
    try {
      await this.bus.publish(`${prefix}/rpc`, requestFrame(id, this.src, method, params), {
        qos: 1,
        retain: false,
      });
    } catch (error) {
      const waiting = this.waiting.get(id);
      if (waiting) {
        clearTimeout(waiting.timer);
        this.waiting.delete(id);
      }
      answer.catch(() => {});
      throw error;
    }
    return answer;
  }

  private onReply(payload: Buffer) {
    if (payload.length > MAX_REPLY_BYTES) {
      this.log.debug({ bytes: payload.length }, 'shelly reply too large; skipped');
      return;
    }
    const reply = parseReply(payload.toString('utf8'));
    if (!reply || typeof reply.id !== 'number') return;
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    if ('error' in reply) waiting.reject(new RpcError(reply.error.code, reply.error.message));
    else waiting.resolve(reply.result);
  }
}
