import { type Device, type DevicehubStatus, devicehubTopics } from '@hearth/contracts';
import type { Logger } from 'pino';
import type { Bus, BusStatus } from '../bus/bus.js';
import type { DeviceAdapter } from './adapters/adapter.js';
import type { EdgeBroker } from './edge/edge-broker.js';

export interface BusWatchOptions {
  bus: Bus;
  edge: EdgeBroker;
  /** Every source; Zigbee2MQTT's bridge state is the status's `bridge`. */
  adapters: DeviceAdapter[];
  /** The registry's view: devices whose last state arrived before a time (ms), and how to ask one for its state. */
  hub: {
    statesOlderThan(time: number): Device[];
    heardSince(id: string, time: number): boolean;
    requestState(device: Device): void;
  };
  log: Logger;
  /** State requests per second after an outage (a Zigbee network is slow: keep it gentle). */
  requestsPerSecond?: number;
  /** How long retained state and availability get to arrive before stale devices are asked. */
  settleMs?: number;
}

/**
 * Makes a bus outage visible and heals it: browsers get the bus's status, retained, on
 * P/events/hub.status (and GET /api/devicehub/status); when the bus comes back, the devices not
 * heard from since the outage began are asked for a fresh state (`<name>/get`), a few per second.
 * Retained availability and state come back by themselves on the re-subscription.
 */
export class BusWatch {
  private offlineSince: number | undefined;
  private queue: Device[] = [];
  private settle: NodeJS.Timeout | undefined;
  private pacer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeBridges: (() => void)[] = [];

  constructor(private readonly options: BusWatchOptions) {}

  start() {
    this.publish(this.status());
    this.unsubscribe = this.options.bus.onStatus((status) => this.changed(status));
    for (const adapter of this.options.adapters) {
      const unsubscribe = adapter.onBridgeState?.(() => this.publish(this.status()));
      if (unsubscribe) this.unsubscribeBridges.push(unsubscribe);
    }
  }

  /** The bus, and Zigbee2MQTT's bridge (a source's own bridge state decides its own commands). */
  status(): DevicehubStatus {
    const { bus, since } = this.options.bus.status();
    const zigbee = this.options.adapters.find((adapter) => adapter.protocol === 'zigbee');
    return { bus, since, bridge: zigbee?.bridgeState?.() ?? null };
  }

  stop() {
    this.unsubscribe?.();
    for (const unsubscribe of this.unsubscribeBridges) unsubscribe();
    this.unsubscribeBridges = [];
    this.cancelRequests();
  }

  private changed(status: BusStatus) {
    this.publish({ ...this.status(), bus: status.bus, since: status.since });
    if (status.bus === 'offline') {
      this.offlineSince = Date.parse(status.since);
      this.cancelRequests();
      return;
    }
    const since = this.offlineSince;
    if (since === undefined) return;
    this.settle = setTimeout(() => this.requestStates(since), this.options.settleMs ?? 1000);
    this.settle.unref();
  }

  private requestStates(offlineSince: number) {
    this.offlineSince = offlineSince;
    this.queue = this.options.hub.statesOlderThan(offlineSince);
    if (this.queue.length === 0) return;
    this.options.log.info(
      { devices: this.queue.length },
      'asking for fresh state of devices not heard since the outage',
    );
    const perSecond = this.options.requestsPerSecond ?? 10;
    this.pacer = setInterval(() => this.next(), Math.ceil(1000 / perSecond));
    this.pacer.unref();
  }

  private next() {
    let device = this.queue.shift();
    // Skip those that have spoken up meanwhile.
    while (device && !this.stillStale(device)) device = this.queue.shift();
    if (!device || !this.options.bus.connected) return this.cancelRequests();
    this.options.hub.requestState(device);
  }

  private stillStale(device: Device) {
    return !this.options.hub.heardSince(device.id, this.offlineSince ?? 0);
  }

  private cancelRequests() {
    clearTimeout(this.settle);
    clearInterval(this.pacer);
    this.queue = [];
  }

  private publish(status: DevicehubStatus) {
    this.options.edge
      .publish(devicehubTopics.hubStatus, JSON.stringify(status), { retain: true })
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'publishing the hub status failed'));
  }
}
