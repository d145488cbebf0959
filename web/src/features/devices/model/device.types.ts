/**
 * Device shapes as the page holds them (docs/devicehub.md (device, capability, input)). The raw device is loose on purpose:
 * it comes from REST, from stream upserts and from partial state messages.
 */
export type Json = Record<string, unknown>;

export interface Access {
  readOnly?: boolean;
  write?: boolean;
  set?: boolean;
  command?: boolean;
  toggle?: boolean;
}

export interface Range {
  min?: number;
  max?: number;
  step?: number;
}

export interface Capability {
  id?: string;
  property?: string;
  name?: string;
  kind?: string;
  type?: string;
  value_type?: string;
  valueType?: string;
  unit?: string;
  units?: string;
  enum?: unknown[];
  range?: Range;
  step?: number;
  access?: Access;
  metadata?: Json;
  /** A composite's features, a list's item (what each value inside it is). */
  features?: Capability[];
  item?: Capability;
}

export interface InputOption {
  value: unknown;
  label?: string;
}

export interface Input {
  id?: string;
  type?: string;
  property?: string;
  capability_id?: string;
  capabilityId?: string;
  capabilityID?: string;
  label?: string;
  range?: Range;
  Range?: Range;
  options?: InputOption[];
  metadata?: { mode?: string; access?: Access } & Json;
  access?: Access;
  readOnly?: boolean;
  /** `composite`: its fields; `list`: the input of one item and how many items it takes. */
  features?: Input[];
  item?: Input;
  length?: { min?: number; max?: number };
}

/** docs/devicehub.md#device-as-the-page-holds-it: a device as held and displayed. */
export interface Device {
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
  capabilities: Capability[];
  inputs: Input[];
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
}

export interface DeviceStats {
  total: number;
  online: number;
  withState: number;
  sensors: number;
}
