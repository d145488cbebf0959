import type {
  AutomationAction,
  AutomationCondition,
  AutomationTrigger,
  Capability,
  Device,
} from '@hearth/contracts';

/** A new part of each type, as the builder adds it (docs/automations.md#page). */
export function newTrigger(type: AutomationTrigger['type'], devices: Device[]): AutomationTrigger {
  const first = devices[0]?.id ?? '';
  switch (type) {
    case 'time':
      return { type, at: '07:00' };
    case 'cron':
      return { type, expression: '0 7 * * 1-5' };
    case 'sun':
      return { type, event: 'sunset', offset_minutes: 0 };
    case 'state':
      return { type, device_id: first, property: readable(devices[0])[0]?.property ?? '' };
    case 'event':
      return {
        type,
        device_id: devices.find((each) => readable(each).some((c) => c.property === 'action'))?.id ?? first,
        value: '',
      };
    case 'availability':
      return { type, device_id: first, online: false };
    case 'start':
      return { type };
  }
}

export function newCondition(type: AutomationCondition['type'], devices: Device[]): AutomationCondition {
  switch (type) {
    case 'state':
      return {
        type,
        device_id: devices[0]?.id ?? '',
        property: readable(devices[0])[0]?.property ?? '',
        equals: '',
      };
    case 'time':
      return { type, after: '22:00', before: '06:00' };
    case 'sun':
      return { type, is: 'down' };
  }
}

export function newAction(type: AutomationAction['type'], devices: Device[]): AutomationAction {
  switch (type) {
    case 'device':
      return { type, device_id: devices.find((each) => writable(each).length > 0)?.id ?? '', state: {} };
    case 'scene':
      return { type, scene_id: '' };
    case 'wait':
      return { type, seconds: 60 };
    case 'notify':
      return { type, to: 'household', title: '', body: '' };
    case 'automation':
      return { type, automation_id: '', enabled: true };
  }
}

/** What a trigger or condition may watch: every capability the device reports. */
export const readable = (device: Device | undefined): Capability[] =>
  (device?.capabilities ?? []).filter((each) => each.access.published !== false);

/** What an action may set: only writable capabilities (docs/devicehub.md#capability). */
export const writable = (device: Device | undefined): Capability[] =>
  (device?.capabilities ?? []).filter((each) => each.access.set && !each.access.readOnly);

/** The values a property may take, when it has a fixed set (on/off, an enum). */
export function choices(capability: Capability | undefined): string[] | undefined {
  if (!capability) return undefined;
  if (capability.kind === 'binary') {
    const on = capability.metadata?.value_on;
    const off = capability.metadata?.value_off;
    return on !== undefined && off !== undefined ? [String(on), String(off)] : ['true', 'false'];
  }
  if (capability.kind === 'enum') return capability.enum;
  return undefined;
}

/** A typed value back from a text field: numbers and booleans as such. */
export function typed(text: string, capability: Capability | undefined): string | number | boolean {
  if (capability?.kind === 'numeric' && text.trim() !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (capability?.kind === 'binary' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
