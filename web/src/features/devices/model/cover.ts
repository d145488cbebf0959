import type { Control } from './controls.js';

/** docs/screens.md#device-tile: the actions a cover (or valve) takes, in the order its buttons show. */
export const COVER_ACTIONS = ['open', 'stop', 'close'] as const;
export type CoverAction = (typeof COVER_ACTIONS)[number];

const COVER_GROUPS = new Set(['cover', 'valve']);

/** The option of `select` that is this action ("OPEN", "open"), if it has one. */
export function coverOption(select: Control, action: CoverAction): unknown {
  return select.options.find((option) => String(option.value).toLowerCase() === action)?.value;
}

/** A select of a cover's actions: Open / Close (/ Stop), nothing else. */
function isActions(control: Control): boolean {
  if (control.kind !== 'select' || control.options.length < 2) return false;
  const values = control.options.map((option) => String(option.value).toLowerCase());
  return (
    values.every((value) => (COVER_ACTIONS as readonly string[]).includes(value)) && values.includes('open')
  );
}

const isTilt = (control: Control) =>
  (control.kind === 'slider' || control.kind === 'number') && control.property.toLowerCase() === 'tilt';

const isPosition = (control: Control) =>
  (control.kind === 'slider' || control.kind === 'number') &&
  /(^|_)position$/.test(control.property.toLowerCase());

/**
 * docs/screens.md#device-tile: a cover's Open / Stop / Close (a select of those values) and its
 * position slider become one control, buttons beside the slider, instead of a dropdown of
 * OPEN/CLOSE/STOP. A composite cover or valve (Home Assistant's, Tasmota's, Shelly's: `command`,
 * `position` and `tilt`) likewise, its tilt a slider beside the position. Everything else is left
 * as it is.
 */
export function groupCovers(controls: Control[]): Control[] {
  const out: Control[] = [];
  const taken = new Set<Control>();
  for (const control of controls) {
    if (taken.has(control)) continue;
    if (control.kind === 'composite' && control.group && COVER_GROUPS.has(control.group)) {
      const actions = control.fields?.find(isActions);
      const position = control.fields?.find(isPosition);
      const tilt = control.fields?.find(isTilt);
      if (actions || position) {
        out.push({
          ...control,
          kind: 'cover',
          parts: {
            ...(actions ? { actions } : {}),
            ...(position ? { position } : {}),
            ...(tilt ? { tilt } : {}),
          },
          composite: true,
        });
        continue;
      }
    }
    const coverish = control.group === undefined || COVER_GROUPS.has(control.group);
    if (coverish && (isActions(control) || (isPosition(control) && control.group !== undefined))) {
      const actions = isActions(control) ? control : controls.find((c) => !taken.has(c) && isActions(c));
      const position = isPosition(control)
        ? control
        : controls.find(
            (c) => !taken.has(c) && isPosition(c) && (c.group === undefined || COVER_GROUPS.has(c.group)),
          );
      if (actions) {
        taken.add(actions);
        if (position) taken.add(position);
        out.push({
          ...actions,
          key: `cover:${actions.inputId}`,
          kind: 'cover',
          label: position?.label ?? actions.label,
          parts: { actions, ...(position ? { position } : {}) },
        });
        continue;
      }
    }
    out.push(control);
  }
  return out;
}
