import type { Control, Within } from './controls.js';
import type { DeviceView } from './device.types.js';
import { propertyName } from './property-names.js';

/**
 * docs/screens.md#devices-of-other-sources: the sources whose composites are entities or parts a
 * household sets one value at a time (a Home Assistant light or climate, a Tasmota light, a
 * Shelly cover), unlike Zigbee2MQTT's, whose fields go together (a siren's Warning: Edit, Apply).
 */
export const PART_SOURCES: ReadonlySet<string> = new Set(['homeassistant', 'tasmota', 'shelly']);

/** Composites kept whole, each a control of its own: covers and valves (cover.ts), locks (lock.ts), alarm panels, updates. */
const WHOLE = new Set(['cover', 'valve', 'lock', 'alarm_control_panel', 'update']);

/**
 * docs/devicehub.md#capability: a write-only enum of actions, as these sources make them: a
 * composite's `command` (a vacuum's start, an update's install), a button's `press`, a scene's
 * `activate`. Other write-only enums (a fan's preset without a state topic) stay settings.
 */
const isActions = (control: Control, top = false) =>
  control.kind === 'select' &&
  control.writeOnly === true &&
  control.options.length > 0 &&
  (top ? control.group === 'button' || control.group === 'scene' : control.property === 'command');
const asActions = (control: Control, top = false): Control =>
  isActions(control, top) ? { ...control, kind: 'actions' } : control;

/** Parts that only qualify another value (a light's fade time): never sent on their own. */
const QUALIFIERS = new Set(['transition']);

const isStateToggle = (control: Control) => control.kind === 'toggle' && control.property === 'state';

/**
 * A device of another source, its controls as a tile shows them:
 * - a composite entity (light, climate, fan, humidifier, water heater, siren, vacuum…) becomes a
 *   control per settable part, each sending its value inside the composite's object; its `state`
 *   may be the tile's power switch; with several such entities each part names its entity
 *   ("Brightness (Ceiling)");
 * - a write-only enum (a button's `press`, a vacuum's `start`…) is a row of action buttons;
 * - an alarm panel is its arm and disarm buttons with a code field, an update its Install;
 * - a Home Assistant switch may be the power switch.
 * Zigbee2MQTT's devices keep their controls as they are.
 */
export function entityControls(device: Pick<DeviceView, 'protocol'>, controls: Control[]): Control[] {
  if (!PART_SOURCES.has(device.protocol ?? '')) return controls;
  const unfolded = controls.filter(
    (control) => control.kind === 'composite' && !WHOLE.has(control.group ?? '') && control.fields?.length,
  );
  const named = unfolded.length > 1;
  return controls.flatMap((control): Control[] => {
    if (control.kind === 'composite' && control.group === 'alarm_control_panel') {
      const actions = control.fields?.find((field) => field.property === 'command' && isActions(field));
      if (!actions) return [control];
      const code = control.fields?.find((field) => field.property === 'code' && field.kind === 'text');
      return [{ ...control, kind: 'alarm', composite: true, parts: { actions, ...(code ? { code } : {}) } }];
    }
    if (control.kind === 'composite' && control.group === 'update') {
      const actions = control.fields?.find((field) => field.property === 'command' && isActions(field));
      return [{ ...control, kind: 'update', composite: true, parts: actions ? { actions } : {} }];
    }
    if (!unfolded.includes(control)) {
      if (control.kind === 'toggle' && control.group === 'switch') return [{ ...control, power: true }];
      return [asActions(control, true)];
    }
    const within: Within = {
      inputId: control.inputId,
      property: control.property,
      power: control.fields?.some(isStateToggle) ?? false,
    };
    const fields = (control.fields ?? []).filter((field) => !QUALIFIERS.has(field.property));
    return fields.map((field) => {
      const own = propertyName(field.property, { label: field.label });
      const label = isStateToggle(field) ? control.label : named ? `${own} (${control.label})` : own;
      return {
        ...asActions(field),
        key: `${control.key}/${field.property}`,
        label,
        group: field.group ?? control.group,
        within,
        ...(isStateToggle(field) ? { power: true } : {}),
      } as Control;
    });
  });
}
