import type { Input } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { parseBridgeDevices } from './bridge-devices.js';
import { accessFromBits, deviceTypeOf, mapExposes } from './exposes.js';
import { compositeDevicesFixture } from './fixtures/scripted-zigbee2mqtt.js';

/** docs/strings.md#validation-rules: writable unless readOnly or any of write/set/command/toggle is false; else if any is true. */
const writable = (access: Record<string, unknown>) => {
  const keys = ['write', 'set', 'command', 'toggle'];
  if (access.readOnly === true || keys.some((k) => access[k] === false)) return false;
  return keys.some((k) => access[k] === true);
};

describe('access bits', () => {
  it.each([
    [1, false, true, false],
    [2, true, false, false],
    [3, true, true, false],
    [4, false, false, true],
    [5, false, true, true],
    [7, true, true, true],
    [undefined, false, true, false],
  ])('access %s → writable %s, published %s, gettable %s', (bits, canWrite, published, gettable) => {
    const access = accessFromBits(bits);
    expect(writable(access as unknown as Record<string, unknown>)).toBe(canWrite);
    expect(access.published).toBe(published);
    expect(access.gettable).toBe(gettable);
  });
});

const binary = (access: number) => ({
  type: 'binary',
  name: 'state',
  label: 'State',
  property: 'state',
  access,
  value_on: 'ON',
  value_off: 'OFF',
  value_toggle: 'TOGGLE',
});

describe('one expose of each type', () => {
  it.each([
    {
      expose: binary(7),
      capability: { id: 'state', kind: 'binary', value_type: 'boolean', type: 'binary' },
      input: { type: 'toggle', property: 'state' },
    },
    {
      expose: binary(1),
      capability: { kind: 'binary', access: expect.objectContaining({ readOnly: true }) },
      input: undefined,
    },
    {
      expose: {
        type: 'numeric',
        name: 'brightness',
        property: 'brightness',
        access: 7,
        value_min: 0,
        value_max: 254,
      },
      capability: { kind: 'numeric', value_type: 'number', range: { min: 0, max: 254 } },
      input: { type: 'slider', range: { min: 0, max: 254 } },
    },
    {
      expose: { type: 'numeric', name: 'temperature', property: 'temperature', access: 1, unit: '°C' },
      capability: { kind: 'numeric', unit: '°C', name: 'Temperature' },
      input: undefined,
    },
    {
      expose: {
        type: 'numeric',
        name: 'occupancy_timeout',
        property: 'occupancy_timeout',
        access: 3,
        unit: 's',
        value_step: 5,
      },
      capability: { kind: 'numeric', step: 5, range: { step: 5 } },
      input: { type: 'number', range: { step: 5 } },
    },
    {
      expose: { type: 'enum', name: 'effect', property: 'effect', access: 2, values: ['blink', 'breathe'] },
      capability: { kind: 'enum', value_type: 'enum', enum: ['blink', 'breathe'] },
      input: {
        type: 'select',
        options: [
          { value: 'blink', label: 'Blink' },
          { value: 'breathe', label: 'Breathe' },
        ],
      },
    },
    {
      expose: { type: 'text', name: 'learned_ir_code', property: 'learned_ir_code', access: 1 },
      capability: { kind: 'text', value_type: 'string' },
      input: undefined,
    },
    {
      expose: {
        type: 'composite',
        name: 'color_xy',
        property: 'color',
        access: 7,
        features: [
          { type: 'numeric', name: 'x', property: 'x', access: 7 },
          { type: 'numeric', name: 'y', property: 'y', access: 7 },
        ],
      },
      capability: { id: 'color', property: 'color', kind: 'composite', value_type: 'object' },
      input: { type: 'color', property: 'color', metadata: expect.objectContaining({ mode: 'composite' }) },
    },
    {
      expose: {
        type: 'composite',
        name: 'color_hs',
        property: 'color',
        features: [
          { type: 'numeric', name: 'hue', property: 'hue', access: 7 },
          { type: 'numeric', name: 'saturation', property: 'saturation', access: 7 },
        ],
      },
      capability: { id: 'color', kind: 'composite', access: expect.objectContaining({ write: true }) },
      input: { type: 'color' },
    },
    {
      expose: {
        type: 'list',
        name: 'schedule',
        property: 'schedule',
        access: 3,
        item_type: { type: 'numeric', name: 'temp' },
      },
      capability: { kind: 'list', value_type: 'array', item: expect.objectContaining({ kind: 'numeric' }) },
      input: { type: 'list', item: expect.objectContaining({ type: 'number', property: 'temp' }) },
    },
    {
      expose: { type: 'text', name: 'display_text', property: 'display_text', access: 3 },
      capability: { kind: 'text', value_type: 'string' },
      input: { type: 'text', property: 'display_text', label: 'Display text' },
    },
  ])('$expose.type $expose.name (access $expose.access)', ({ expose, capability, input }) => {
    const model = mapExposes([expose]);
    expect(model.skipped).toEqual([]);
    expect(model.capabilities).toEqual([expect.objectContaining(capability)]);
    expect(model.inputs).toEqual(input ? [expect.objectContaining(input)] : []);
  });
});

describe('specific types', () => {
  it.each(['light', 'switch', 'lock', 'cover', 'climate', 'fan'])(
    '%s features become capabilities of that type',
    (type) => {
      const model = mapExposes([{ type, features: [binary(7)] }]);
      expect(model.capabilities).toEqual([expect.objectContaining({ id: 'state', type })]);
      expect(deviceTypeOf(model.capabilities)).toBe(type);
    },
  );

  it('keeps endpoint-suffixed properties apart and names them by endpoint', () => {
    const model = mapExposes([
      { type: 'switch', endpoint: 'l1', features: [{ ...binary(7), property: 'state_l1', endpoint: 'l1' }] },
      { type: 'switch', endpoint: 'l2', features: [{ ...binary(7), property: 'state_l2' }] },
    ]);
    expect(model.capabilities.map((c) => [c.id, c.name, c.metadata?.endpoint])).toEqual([
      ['state_l1', 'State (l1)', 'l1'],
      ['state_l2', 'State (l2)', 'l2'],
    ]);
    expect(model.inputs.map((i) => i.type)).toEqual(['toggle', 'toggle']);
  });

  it('merges color_xy and color_hs into one colour capability with both modes', () => {
    const composite = (name: string) => ({
      type: 'composite',
      name,
      property: 'color',
      access: 7,
      features: [],
    });
    const model = mapExposes([{ type: 'light', features: [composite('color_xy'), composite('color_hs')] }]);
    expect(model.capabilities).toHaveLength(1);
    expect(model.capabilities[0]!.metadata?.color_modes).toEqual(['color_xy', 'color_hs']);
    expect(model.inputs).toHaveLength(1);
  });
});

describe('composites, lists and text (real definitions)', () => {
  const { devices } = parseBridgeDevices(compositeDevicesFixture());
  const inputOf = (device: string, property: string) =>
    devices.find((d) => d.name === device)!.inputs.find((i) => i.property === property);
  /** An input tree as "type property" lines, nested by indentation. */
  const outline = (input: Input | undefined, depth = 0): string[] =>
    input
      ? [
          `${'  '.repeat(depth)}${input.type} ${input.property}`,
          ...(input.features ?? []).flatMap((feature) => outline(feature, depth + 1)),
          ...outline(input.item, depth + 1),
        ]
      : [];

  it('a composite becomes one input with its settable features as fields', () => {
    expect(outline(inputOf('Hall siren', 'warning'))).toEqual([
      'composite warning',
      '  select mode',
      '  select level',
      '  select strobe_level',
      '  toggle strobe',
      '  slider strobe_duty_cycle',
      '  number duration',
    ]);
    expect(inputOf('Hall siren', 'warning')!.features![1]).toMatchObject({
      label: 'Level',
      options: [
        { value: 'low', label: 'Low' },
        { value: 'medium', label: 'Medium' },
        { value: 'high', label: 'High' },
        { value: 'very_high', label: 'Very high' },
      ],
    });
    expect(outline(inputOf('Front door lock', 'pin_code'))).toEqual([
      'composite pin_code',
      '  number user',
      '  select user_type',
      '  toggle user_enabled',
      '  number pin_code',
    ]);
  });

  it('keeps the endpoint suffix of a composite and its label', () => {
    expect(inputOf('Stairs dimmer', 'level_config_l1')).toMatchObject({
      type: 'composite',
      label: 'Level config (l1)',
      features: [
        expect.objectContaining({ property: 'on_level_l1', label: 'On level', range: { min: 1, max: 254 } }),
        expect.objectContaining({ property: 'current_level_startup_l1', label: 'Current level startup' }),
      ],
    });
  });

  it('nests composites in composites, and lists of composites in composites', () => {
    expect(outline(inputOf('Garden relay', 'programmable_stepper_seq1')).slice(0, 9)).toEqual([
      'composite programmable_stepper_seq1',
      '  toggle enable_stepper',
      '  slider switch_outlet',
      '  toggle enable_double_press',
      '  slider double_press_interval',
      '  composite step_1',
      '    toggle enable_step',
      '    toggle relay_outlet_1',
      '    toggle relay_outlet_2',
    ]);
    expect(outline(inputOf('Bedroom thermostat', 'weekly_schedule'))).toEqual([
      'composite weekly_schedule',
      '  list dayofweek',
      '    composite day',
      '      select day',
      '  list transitions',
      '    composite transition',
      '      composite transition_time',
      '        number hour',
      '        number minute',
      '      number heat_setpoint',
    ]);
    expect(inputOf('Bedroom thermostat', 'weekly_schedule')!.features![0]).toMatchObject({
      length: { min: 1, max: 8 },
    });
  });

  it('a list of text items gets an item editor with its length bounds', () => {
    expect(inputOf('Living room gradient', 'gradient')).toMatchObject({
      type: 'list',
      length: { min: 1, max: 9 },
      item: expect.objectContaining({ type: 'text', label: 'Hex' }),
    });
  });

  it('leaves read-only features out of a composite, and a composite with none settable out', () => {
    const model = mapExposes([
      {
        type: 'composite',
        name: 'schedule',
        property: 'schedule',
        access: 3,
        features: [
          { type: 'numeric', name: 'temperature', property: 'temperature', access: 3 },
          { type: 'numeric', name: 'measured', property: 'measured', access: 1 },
        ],
      },
      {
        type: 'composite',
        name: 'report',
        property: 'report',
        access: 1,
        features: [{ type: 'numeric', name: 'a', property: 'a', access: 1 }],
      },
      {
        // Marked read-only itself, yet its features are settable (some definitions do this).
        type: 'composite',
        name: 'away_setting',
        property: 'away_setting',
        access: 1,
        features: [{ type: 'numeric', name: 'days', property: 'days', access: 3 }],
      },
    ]);
    expect(model.capabilities.find((c) => c.id === 'schedule')!.features).toHaveLength(2);
    expect(model.inputs.map((input) => outline(input))).toEqual([
      ['composite schedule', '  number temperature'],
      ['composite away_setting', '  number days'],
    ]);
  });
});

describe('what it cannot use', () => {
  it.each([
    ['an unknown type', [{ type: 'hologram', name: 'aura' }]],
    ['an expose without type', [{ name: 'x' }]],
    ['a string', ['state']],
    ['null', [null]],
    ['a binary without values', [{ type: 'binary', name: 'x', access: 1 }]],
    ['an enum without values', [{ type: 'enum', name: 'x', access: 1 }]],
    ['no name or property', [{ type: 'numeric', access: 1 }]],
  ])('skips %s and reports it', (_label, exposes) => {
    const model = mapExposes(exposes);
    expect(model.capabilities).toEqual([]);
    expect(model.skipped).toHaveLength(1);
  });

  it.each([undefined, null, 'exposes', 42, {}])('answers nothing for exposes %j', (exposes) => {
    expect(mapExposes(exposes)).toEqual({ capabilities: [], inputs: [], skipped: [] });
  });

  it('keeps the first of two exposes with the same property', () => {
    const model = mapExposes([
      { type: 'numeric', name: 'temperature', property: 'temperature', access: 1, unit: '°C' },
      { type: 'numeric', name: 'temperature', property: 'temperature', access: 1, unit: '°F' },
    ]);
    expect(model.capabilities).toEqual([expect.objectContaining({ unit: '°C' })]);
  });
});
