import type { Capability, CapabilityAccess, DeviceAccess, Input, NumericRange } from '@hearth/contracts';

/**
 * How the page reads devices (docs/devicehub.md#device). The wire shapes are the contracts'
 * Device, Capability and Input; what arrives (REST, stream upserts, partial state messages) is
 * read leniently, so the readings below make every wire field optional and add the aliases the
 * docs accept. DeviceView is the page's own model, derived from them; none of these is a wire type.
 */
export type Json = Record<string, unknown>;

export type Access = Partial<CapabilityAccess> & { command?: boolean };

export type Range = NumericRange;

/** A wire Capability as read: any field may be missing; kinds are read as text. */
export interface CapabilityReading
  extends Partial<
    Omit<Capability, 'kind' | 'value_type' | 'enum' | 'range' | 'access' | 'metadata' | 'features' | 'item'>
  > {
  kind?: string;
  value_type?: string;
  valueType?: string;
  units?: string;
  enum?: unknown[];
  range?: Range;
  access?: Access;
  metadata?: Json;
  /** A composite's features, a list's item (what each value inside it is). */
  features?: CapabilityReading[];
  item?: CapabilityReading;
}

export interface InputOptionReading {
  value: unknown;
  label?: string;
}

/** A wire Input as read: any field may be missing, with the aliases of its capability id and range. */
export interface InputReading
  extends Partial<Omit<Input, 'type' | 'range' | 'options' | 'metadata' | 'access' | 'features' | 'item'>> {
  type?: string;
  capabilityId?: string;
  capabilityID?: string;
  range?: Range;
  Range?: Range;
  options?: InputOptionReading[];
  metadata?: { mode?: string; access?: Access } & Json;
  access?: Access;
  /** `composite`: its fields; `list`: the input of one item and how many items it takes. */
  features?: InputReading[];
  item?: InputReading;
}

/** docs/devicehub.md#device-as-the-page-holds-it: a device as held and displayed. */
export interface DeviceView {
  key: string;
  mapKey: string;
  externalId: string | null;
  id: string | null;
  protocol: string | null;
  name: string | null;
  displayName: string;
  type: string | null;
  manufacturer: string | null;
  model: string | null;
  firmware: string | null;
  description: string | null;
  capabilities: CapabilityReading[];
  inputs: InputReading[];
  online: boolean;
  lastSeen: number | null;
  createdAt: number | null;
  updatedAt: number | null;
  metadataUpdatedAt: number | null;
  state: Json;
  stateUpdatedAt: number | null;
  stateHasValues: boolean;
  hasToggle: boolean;
  toggleState: boolean | null;
  /** Set once an upsert or a REST list brought the device's metadata. */
  hasMetadata: boolean;
  /** docs/rooms.md#assignment: the device's room, null when unassigned. */
  roomId: string | null;
  /** docs/rooms.md#suggestions: a room name its `room/device` name suggests, null when none. */
  suggestedRoom: string | null;
  /**
   * docs/access.md: what the viewer may do with it, as the server says on every device it lists
   * (`view`: its controls are disabled, "View only"); null when the server does not say (control).
   */
  access: DeviceAccess | null;
}

export interface DeviceStats {
  total: number;
  online: number;
  withState: number;
  sensors: number;
}
