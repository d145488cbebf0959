import type { Capability, DeviceState } from '@hearth/contracts';
import { isObject } from '../shared/json.js';
import { readBinary } from './binary.js';

/**
 * docs/devicehub.md#commands-to-several-devices: what a device's state must say for a command to
 * count as done. Built from what the adapter sent (in the command's terms: the input's value under
 * its id, `on`, the keys of `state` the device took) and the device's capabilities; checked
 * against each fresh state report until every expectation is met.
 */
export interface Expectation {
  /** The key in the device's state. */
  property: string;
  /** A composite's part the value is in (a Home Assistant light's `state`), if any. */
  feature?: string;
  check: (reported: unknown) => boolean;
}

const writable = (capabilities: Capability[]) => capabilities.filter((c) => !c.access.readOnly);

const byKey = (capabilities: Capability[], key: string) =>
  writable(capabilities).find((c) => c.id === key || c.property === key);

/** The device's own on/off values first (`LOCK`/`UNLOCK`), then docs/strings.md#binary-value-reading. */
function readOnOff(capability: Capability, value: unknown): boolean | undefined {
  const meta = capability.metadata ?? {};
  if (meta.value_on !== undefined && value === meta.value_on) return true;
  if (meta.value_off !== undefined && value === meta.value_off) return false;
  return readBinary(value);
}

/** A composite's on/off part (a Home Assistant light's, switch's or fan's `state`). */
const powerFeature = (capability: Capability) =>
  capability.kind === 'composite'
    ? capability.features?.find((feature) => feature.kind === 'binary' && feature.property === 'state')
    : undefined;

/**
 * The capability `state.on` sets, as the adapters choose it: the input's endpoint's
 * `state_{endpoint}`, else `state`, else `on`, else a part's `…state` switch, else a composite with
 * an on/off part (Home Assistant).
 */
export function powerCapability(capabilities: Capability[], endpoint?: unknown): Capability | undefined {
  const binaries = writable(capabilities).filter((c) => c.kind === 'binary');
  if (typeof endpoint === 'string') {
    const own = binaries.find((c) => c.property === `state_${endpoint}`);
    if (own) return own;
  }
  return (
    binaries.find((c) => c.property === 'state') ??
    binaries.find((c) => c.property === 'on') ??
    binaries.find((c) => c.type !== 'binary' && c.property.endsWith('state')) ??
    writable(capabilities).find((c) => powerFeature(c) !== undefined)
  );
}

function expectationOf(capability: Capability, value: unknown): Expectation {
  const { property } = capability;
  const feature = powerFeature(capability);
  if (feature) {
    const wanted = isObject(value) ? readOnOff(feature, value.state) : readOnOff(feature, value);
    return {
      property,
      feature: 'state',
      check: (reported) => isObject(reported) && readOnOff(feature, reported.state) === wanted,
    };
  }
  switch (capability.kind) {
    case 'binary': {
      const wanted = readOnOff(capability, value);
      return {
        property,
        check: (reported) => wanted !== undefined && readOnOff(capability, reported) === wanted,
      };
    }
    case 'numeric': {
      const wanted = typeof value === 'string' ? Number(value) : value;
      // Devices round to their own step (a bulb reports 127 for 128 now and then).
      const tolerance = Math.max(capability.range?.step ?? capability.step ?? 1, 1);
      return {
        property,
        check: (reported) =>
          typeof wanted === 'number' && typeof reported === 'number'
            ? Math.abs(reported - wanted) <= tolerance
            : reported === value,
      };
    }
    case 'enum':
      return {
        property,
        check: (reported) => String(reported).toLowerCase() === String(value).toLowerCase(),
      };
    default:
      // A colour, composite, list or text comes back in the device's own terms: that the device
      // reported it again after the command is what can be told.
      return { property, check: (reported) => reported !== undefined };
  }
}

/** What the state must say for `sent` (the adapter's account of a command) to be done. */
export function expectationsOf(capabilities: Capability[], sent: Record<string, unknown>): Expectation[] {
  const expectations = new Map<string, Expectation>();
  let endpoint: unknown;
  for (const [key, value] of Object.entries(sent)) {
    if (key === 'on') continue;
    const capability = byKey(capabilities, key);
    if (!capability) continue;
    endpoint ??= capability.metadata?.endpoint;
    expectations.set(capability.property, expectationOf(capability, value));
  }
  if ('on' in sent) {
    const power = powerCapability(capabilities, endpoint);
    if (power && !expectations.has(power.property)) {
      expectations.set(power.property, expectationOf(power, sent.on));
    }
  }
  return [...expectations.values()];
}

/**
 * Follows one command's expectations through the reports that arrive after it was sent: a report
 * may carry only some properties (Home Assistant's entities report one at a time).
 */
export class Confirmation {
  private readonly open: Expectation[];
  private heard = false;

  constructor(expectations: Expectation[]) {
    this.open = [...expectations];
  }

  /** Takes a fresh report; true once everything expected has been seen. */
  report(state: DeviceState): boolean {
    this.heard = true;
    for (let index = this.open.length - 1; index >= 0; index--) {
      const expectation = this.open[index] as Expectation;
      if (expectation.property in state && expectation.check(state[expectation.property])) {
        this.open.splice(index, 1);
      }
    }
    return this.done;
  }

  /** Everything seen (a command with nothing the state could show: done at the first report). */
  get done(): boolean {
    return this.heard && this.open.length === 0;
  }
}
