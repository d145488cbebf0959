/**
 * The parts of Zigbee2MQTT's public MQTT API the adapter reads and writes
 * (https://www.zigbee2mqtt.io/guide/usage/mqtt_topics_and_messages.html). Everything arriving
 * from the bus is untrusted: these types describe what a well-behaved Zigbee2MQTT sends.
 */

/** Access bits of an expose: published in the state, settable via /set, gettable via /get. */
export const ACCESS_STATE = 1;
export const ACCESS_SET = 2;
export const ACCESS_GET = 4;

interface ExposeBase {
  name?: string;
  label?: string;
  property?: string;
  access?: number;
  endpoint?: string;
  description?: string;
  category?: 'config' | 'diagnostic';
}

export interface BinaryExpose extends ExposeBase {
  type: 'binary';
  value_on: unknown;
  value_off: unknown;
  value_toggle?: unknown;
}

export interface NumericExpose extends ExposeBase {
  type: 'numeric';
  value_min?: number;
  value_max?: number;
  value_step?: number;
  unit?: string;
  presets?: { name: string; value: number; description?: string }[];
}

export interface EnumExpose extends ExposeBase {
  type: 'enum';
  values: (string | number)[];
}

export interface TextExpose extends ExposeBase {
  type: 'text';
}

export interface CompositeExpose extends ExposeBase {
  type: 'composite';
  features: Expose[];
}

export interface ListExpose extends ExposeBase {
  type: 'list';
  item_type?: Expose;
  length_min?: number;
  length_max?: number;
}

export const SPECIFIC_TYPES = ['light', 'switch', 'lock', 'cover', 'climate', 'fan'] as const;
export type SpecificType = (typeof SPECIFIC_TYPES)[number];

export interface SpecificExpose extends ExposeBase {
  type: SpecificType;
  features: Expose[];
}

export type Expose =
  | BinaryExpose
  | NumericExpose
  | EnumExpose
  | TextExpose
  | CompositeExpose
  | ListExpose
  | SpecificExpose;

/** One entry of the retained `bridge/devices` list. */
export interface BridgeDevice {
  ieee_address: string;
  friendly_name: string;
  type?: 'Coordinator' | 'Router' | 'EndDevice' | 'GreenPower' | 'Unknown';
  network_address?: number;
  supported?: boolean;
  disabled?: boolean;
  description?: string | null;
  manufacturer?: string | null;
  model_id?: string | null;
  software_build_id?: string | null;
  date_code?: string | null;
  power_source?: string | null;
  interview_completed?: boolean;
  interviewing?: boolean;
  definition?: {
    model?: string;
    vendor?: string;
    description?: string;
    exposes?: Expose[];
    options?: unknown[];
    supports_ota?: boolean;
  } | null;
}

/** `bridge/event`. */
export interface BridgeEvent {
  type: 'device_joined' | 'device_leave' | 'device_interview' | 'device_announce' | string;
  data: { friendly_name?: string; ieee_address?: string; status?: string };
}

/** `bridge/request/device/rename`. */
export interface RenameRequest {
  from: string;
  to: string;
  homeassistant_rename: boolean;
  transaction: string;
}

/** `bridge/response/device/rename`. */
export interface RenameResponse {
  data?: { from?: string; to?: string; homeassistant_rename?: boolean };
  status: 'ok' | 'error';
  error?: string;
  transaction?: string;
}
