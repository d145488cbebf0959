import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Bus } from './bus.js';

/** What the latest probe found (GET /healthz `details`, GET /api/devicehub/status for admins). */
export interface BusProbeResult {
  /** Median round trip of the probe's second message, in ms (one decimal); null before the first probe. */
  bus_round_trip_ms: number | null;
  /** The broker holds small messages back: the round trip was above the limit while Hearth was idle. */
  bus_delay_warning: boolean;
}

export interface BusProbeOptions {
  bus: Bus;
  /** `{prefix}/probe/{instance-id}`: a topic only this process uses. */
  topic: string;
  log: Logger;
  /** How often to probe after the first one (default a minute). */
  intervalMs?: number;
  /** A round trip above this warns (default 20 ms). */
  limitMs?: number;
  /** The machine counts as idle while the event loop's delay p99 stays below this (default 10 ms). */
  idleEventLoopMs?: number;
  /** Rounds per probe (default 5); the median counts. */
  rounds?: number;
  /** How long to wait for a probe message (default 2 s); a lost one ends the probe without a verdict. */
  timeoutMs?: number;
  /** After a probe without a verdict (a busy machine), the next one this soon (default 2 s). */
  retryMs?: number;
}

/** The log line, once per process: it names the setting, since most users won't read the README. */
export const BUS_DELAY_WARNING =
  'the MQTT broker holds small messages back: with Mosquitto, add "set_tcp_nodelay true" to its configuration (see the README)';

/** The event-loop monitor's resolution: each sample is this plus the loop's delay. */
const RESOLUTION_MS = 5;
/**
 * After a probe on a busy machine (e.g. at start, while Hearth loads), another one this soon: until
 * the first verdict, then a few times.
 */
const RETRY_MS = 2000;
const RETRIES = 5;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * Measures the bus round trip of Hearth's own messages, at start (once connected) and every
 * minute. Each round publishes two QoS 0 messages back to back on the private topic and times the
 * second one: a broker that does not set TCP_NODELAY (Mosquitto's default) holds it back until the
 * first one is acknowledged, up to the 40 ms of a delayed ACK. Rounds follow each other at once,
 * as messages do on a busy bus. The embedded broker sends at once and is never warned about.
 */
export class BusProbe {
  private result: BusProbeResult = { bus_round_trip_ms: null, bus_delay_warning: false };
  private waiting = new Map<string, () => void>();
  private timer: NodeJS.Timeout | undefined;
  private removers: (() => void)[] = [];
  private running: Promise<void> | undefined;
  private subscribed: Promise<void> = Promise.resolve();
  private warned = false;
  private closed = false;
  private sequence = 0;
  private retries = RETRIES;
  /** An idle probe has given a verdict. */
  private judged = false;

  constructor(private readonly options: BusProbeOptions) {}

  get latest(): BusProbeResult {
    return { ...this.result };
  }

  /** Subscribes in the background (a broker that is down at start must not hold the start up). */
  start() {
    const { bus, topic } = this.options;
    this.subscribed = bus
      .subscribe(topic, (_topic, payload) => this.waiting.get(payload.toString())?.())
      .then((remove) => {
        if (this.closed) remove();
        else this.removers.push(remove);
      });
    this.subscribed.catch((error: unknown) =>
      this.options.log.warn({ err: error }, 'bus probe: subscribe failed'),
    );
    // After an outage, probe again once the bus is back (the subscription is renewed by then).
    this.removers.push(
      bus.onStatus((status) => {
        if (status.bus === 'online') this.soon(1000);
      }),
    );
    this.timer = setInterval(() => void this.probe(), this.options.intervalMs ?? 60_000);
    this.timer.unref();
    void this.probe();
  }

  async close() {
    this.closed = true;
    clearInterval(this.timer);
    for (const remove of this.removers) remove();
    this.removers = [];
    await this.running;
  }

  /** One probe now (unless one is running); resolves when it is done. */
  probe(): Promise<void> {
    if (this.closed || !this.options.bus.connected) return Promise.resolve();
    this.running ??= this.measure()
      .catch((error: unknown) => this.options.log.debug({ err: error }, 'bus probe failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private soon(ms: number) {
    setTimeout(() => void this.probe(), ms).unref();
  }

  private async measure() {
    const { bus, log } = this.options;
    await this.subscribed;
    const rounds = this.options.rounds ?? 5;
    const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    delay.enable();
    const trips: number[] = [];
    try {
      for (let round = 0; round < rounds && !this.closed; round++) {
        const trip = await this.round();
        if (trip === undefined) return;
        trips.push(trip);
      }
    } finally {
      delay.disable();
    }
    if (trips.length < rounds) return;
    const roundTrip = Math.round(median(trips) * 10) / 10;
    const loopP99 = delay.count > 0 ? Math.max(0, delay.percentile(99) / 1e6 - RESOLUTION_MS) : 0;
    const idle = loopP99 < (this.options.idleEventLoopMs ?? 10);
    if (idle) {
      this.judged = true;
      this.retries = RETRIES;
    } else if (!this.judged || this.retries > 0) {
      // Before a first verdict it keeps trying (a box loading its devices may stay busy for a
      // while, and a minute's wait would leave the warning unsaid); after one, a few times.
      if (this.judged) this.retries -= 1;
      this.soon(this.options.retryMs ?? RETRY_MS);
    }
    const slow = roundTrip > (this.options.limitMs ?? 20) && bus.description !== 'embedded';
    // A busy machine says nothing about the broker: its verdict stays as the last idle probe left it.
    const warning = idle ? slow : this.result.bus_delay_warning;
    this.result = { bus_round_trip_ms: roundTrip, bus_delay_warning: warning };
    log.debug({ busRoundTripMs: roundTrip, eventLoopP99Ms: loopP99, trips }, 'bus probe');
    if (warning && !this.warned) {
      this.warned = true;
      log.warn(
        { busRoundTripMs: roundTrip, eventLoopP99Ms: Math.round(loopP99 * 10) / 10, bus: bus.description },
        BUS_DELAY_WARNING,
      );
    }
  }

  /** Publishes two messages back to back; the second one's round trip in ms, undefined when lost. */
  private async round(): Promise<number | undefined> {
    const { bus, topic } = this.options;
    const id = `${++this.sequence}`;
    const first = `${id}a`;
    const second = `${id}b`;
    // On the connection that receives: what a client that both publishes and subscribes gets.
    const send = (payload: string) =>
      bus.publishOnReceiver ? bus.publishOnReceiver(topic, payload) : bus.publish(topic, payload);
    const started = performance.now();
    const arrived = new Promise<number | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), this.options.timeoutMs ?? 2000);
      timer.unref();
      this.waiting.set(second, () => {
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
    });
    try {
      await Promise.all([send(first), send(second)]);
      return await arrived;
    } catch {
      return undefined;
    } finally {
      this.waiting.delete(second);
    }
  }
}
