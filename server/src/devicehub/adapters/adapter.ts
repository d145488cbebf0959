import type { Capability, Device, DeviceCommandRequest, Input } from '@hearth/contracts';

/** What an adapter knows about a device, before the hub gives it a stable id. */
export interface DeviceDescription {
  external_id: string;
  name: string;
  protocol: string;
  manufacturer: string | null;
  model: string | null;
  type: string;
  description: string | null;
  firmware: string | null;
  capabilities: Capability[];
  inputs: Input[];
  /** The room its ecosystem suggests (Home Assistant's `suggested_area`; docs/rooms.md#suggestions). */
  suggested_room?: string | null;
}

/** How an adapter reports what happens in its ecosystem to the hub. */
export interface AdapterEvents {
  /**
   * This adapter's devices. `complete` (the default): its whole list, so devices missing from it
   * have left (within the registry's bounds); false: only these are new or changed, nothing left.
   */
  devicesListed(devices: DeviceDescription[], complete?: boolean): void;
  deviceRemoved(externalId: string): void;
  /** A state report; lastSeen from the device's own payload or the time it arrived. */
  stateReported(
    externalId: string,
    state: Record<string, unknown>,
    lastSeen: string | null,
    retained: boolean,
  ): void;
  availabilityChanged(externalId: string, online: boolean): void;
}

/**
 * A device ecosystem turned into the hub's model and back. The hub holds several, one per
 * `protocol`: each device is served by the adapter of its protocol (commands, renames, state
 * requests), and each adapter's reports concern only its own devices.
 */
export interface DeviceAdapter {
  /** The `protocol` of its devices (`zigbee`, `homeassistant`, …), unique among the hub's adapters. */
  readonly protocol: string;
  start(events: AdapterEvents): Promise<void>;
  stop(): Promise<void>;
  /** Subscribed and listening. */
  ready(): boolean;
  /**
   * Sends a command; throws an HttpError (400) for a payload the device can't take. Resolves with
   * what it sent in the command's terms (the input's value under its id, the keys of `state` the
   * device takes), which the activity log records; undefined: the command's `state` is recorded.
   */
  command(device: Device, request: DeviceCommandRequest): Promise<Record<string, unknown> | undefined>;
  /** Renames the device in its ecosystem; resolves with the name it now has. */
  rename(device: Device, name: string): Promise<string>;
  /** Asks the device for a fresh state report; resolves false when it has nothing to ask for. */
  requestState(device: Device): Promise<boolean>;
  /** Whether the ecosystem's bridge says it runs (null: it has not said); commands answer 503 while offline. */
  bridgeState?(): 'online' | 'offline' | null;
  onBridgeState?(listener: (state: 'online' | 'offline' | null) => void): () => void;
}
