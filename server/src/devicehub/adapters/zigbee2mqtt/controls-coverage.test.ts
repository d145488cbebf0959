import { describe, expect, it } from 'vitest';
// The web app's own controls model: what a tile offers for the inputs the hub sends.
import {
  type Control,
  type ControlKind,
  deviceControls,
} from '../../../../../web/src/features/devices/model/controls.js';
import { deviceFrom } from '../../../../../web/src/features/devices/model/test-devices.js';
import { isObject } from '../../../shared/json.js';
import { mapExposes } from './exposes.js';
import { realDefinitions } from './fixtures/real-definitions.js';
import { ACCESS_SET, SPECIFIC_TYPES } from './z2m.types.js';

/** A settable leaf feature: a single value a device takes, where it sits in the `/set` payload. */
interface Leaf {
  path: string[];
  type: string;
  /** A list's item type. */
  itemType?: string;
  /** Part of a colour composite (color_xy, color_hs): the colour picker sets it. */
  colour: boolean;
}

const COLOUR_COMPOSITES = ['color_xy', 'color_hs'];

/** Every settable leaf of a definition; a list counts as one leaf (its items are edited in it). */
function settableLeaves(exposes: unknown[]): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (expose: unknown, path: string[], colour: boolean) => {
    if (!isObject(expose)) return;
    const features = Array.isArray(expose.features) ? expose.features : [];
    const key = String(expose.property ?? expose.name);
    if ((SPECIFIC_TYPES as readonly string[]).includes(String(expose.type))) {
      for (const feature of features) walk(feature, path, colour);
    } else if (expose.type === 'composite') {
      const isColour = colour || (path.length === 0 && COLOUR_COMPOSITES.includes(String(expose.name)));
      for (const feature of features) walk(feature, [...path, key], isColour);
    } else if ((Number(expose.access ?? 0) & ACCESS_SET) !== 0) {
      const itemType = isObject(expose.item_type) ? String(expose.item_type.type) : undefined;
      leaves.push({
        path: [...path, key],
        type: String(expose.type),
        colour,
        ...(itemType ? { itemType } : {}),
      });
    }
  };
  for (const expose of exposes) walk(expose, [], false);
  return leaves;
}

const FITTING: Record<string, ControlKind[]> = {
  binary: ['toggle'],
  numeric: ['slider', 'number'],
  enum: ['select'],
  text: ['text'],
  list: ['list'],
  composite: ['composite'],
};

/** The control's kind suits the type, and it can take a value: options to pick, a range to slide in. */
const fits = (control: Control | undefined, type: string | undefined): control is Control =>
  control !== undefined &&
  type !== undefined &&
  FITTING[type]?.includes(control.kind) === true &&
  (control.kind !== 'select' || control.options.length > 0) &&
  (control.kind !== 'slider' || control.min < control.max) &&
  (control.kind !== 'composite' || (control.fields?.length ?? 0) > 0);

/**
 * The controls a tile shows: a cover is its Open / Stop / Close select and its position slider, as
 * buttons beside the slider (docs/screens.md#covers); each part sets its own feature.
 */
const shown = (controls: Control[]): Control[] =>
  controls.flatMap((control) =>
    control.kind === 'cover'
      ? Object.values(control.parts ?? {}).filter((part) => part !== undefined)
      : [control],
  );

/** The control a tile offers for the leaf, if it fits the leaf's type. */
function controlFor(controls: Control[], leaf: Leaf): Control | undefined {
  const [first, ...rest] = leaf.path;
  const top = shown(controls).find((control) => control.property === first);
  if (leaf.colour) return top?.kind === 'color' ? top : undefined;
  let found = top;
  for (const key of rest) found = found?.fields?.find((field) => field.property === key);
  if (!fits(found, leaf.type)) return undefined;
  if (found.kind === 'list' && !fits(found.item, leaf.itemType)) return undefined;
  return found;
}

describe('a control for every settable feature of the real Zigbee2MQTT definitions', () => {
  it('covers at least 99 % of the settable leaf features of every zigbee-herdsman-converters definition', () => {
    const definitions = realDefinitions();
    let total = 0;
    const misses: string[] = [];
    for (const definition of definitions) {
      const { capabilities, inputs } = mapExposes(definition.exposes);
      const controls = deviceControls(deviceFrom({ id: definition.model, capabilities, inputs }));
      for (const leaf of settableLeaves(definition.exposes)) {
        total++;
        if (!controlFor(controls, leaf))
          misses.push(`${leaf.type} ${leaf.path.join('.')} (${definition.model})`);
      }
    }
    const share = (total - misses.length) / total;
    const grouped = new Map<string, string[]>();
    for (const miss of misses) {
      const [feature, model] = miss.split(' (');
      grouped.set(feature!, [...(grouped.get(feature!) ?? []), model!.slice(0, -1)]);
    }
    console.log(
      [
        `controls for settable features: ${(share * 100).toFixed(2)} % of ${total} leaf features in ${definitions.length} definitions; ${misses.length} without a fitting control:`,
        ...[...grouped]
          .sort((a, b) => b[1].length - a[1].length)
          .map(
            ([feature, models]) =>
              `  ${feature}: ${models.length} (${models.slice(0, 3).join(', ')}${models.length > 3 ? ', …' : ''})`,
          ),
      ].join('\n'),
    );
    expect(definitions.length).toBeGreaterThan(4000);
    expect(share).toBeGreaterThanOrEqual(0.99);
  });
});
