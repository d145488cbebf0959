import { describe, expect, it } from 'vitest';
import {
  binaryReadings,
  type Control,
  deviceControls,
  isHiddenComposite,
  isWritable,
  splitControls,
} from './controls.js';
import { deviceFrom, rawGroupDevice } from './test-devices.js';

describe('isWritable (docs/strings.md#validation-rules)', () => {
  it.each([
    [undefined, false],
    [{}, false],
    [{ readOnly: true, write: true }, false],
    [{ readOnly: false }, false],
    [{ write: true }, true],
    [{ set: true }, true],
    [{ command: true }, true],
    [{ toggle: true }, true],
    [{ write: true, set: false }, false],
    [{ command: false }, false],
    [{ readOnly: false, toggle: true }, true],
  ])('%j → %j', (access, expected) => {
    expect(isWritable(access)).toBe(expected);
  });
});

describe('hidden composite colour inputs (docs/strings.md#constants-and-limits)', () => {
  it.each(['x', 'y', 'hue', 'saturation', 'color_x', 'color_y', 'color_hs', 'color_xy'])(
    'hides %s',
    (property) => {
      expect(isHiddenComposite({ property })).toBe(true);
    },
  );
  it('hides no other name, however close to one of them', () => {
    const near = ['color', 'colour', 'color_temp', 'color_rgb', 'color_hsv', 'xy', 'hs', 'xx', 'hue_x', 'z'];
    const more = ['x_axis', 'hue_power_on_behavior', 'saturation_move', 'brightness', 'state', ''];
    expect([...near, ...more].filter((property) => isHiddenComposite({ property }))).toEqual([]);
  });
  it.each([
    [{ property: 'x' }, true],
    [{ property: 'color_xy' }, true],
    [{ id: 'color.hue' }, true],
    [{ id: 'saturation' }, true],
    [{ property: 'color' }, false],
    [{ property: 'brightness' }, false],
  ])('%j hidden: %j', (input, hidden) => {
    expect(isHiddenComposite(input)).toBe(hidden);
  });
  it('never offers them as controls', () => {
    const device = deviceFrom({
      id: 'bulb',
      inputs: [
        { id: 'color', type: 'color', property: 'color' },
        { id: 'color_x', type: 'slider', property: 'color_x' },
        { id: 'hue', type: 'slider', property: 'hue' },
      ],
    });
    expect(deviceControls(device).map((control) => control.property)).toEqual(['color']);
  });
});

describe('deviceControls from inputs (docs/devicehub.md#input)', () => {
  const bulb = deviceFrom({
    id: 'bulb',
    state: { state: 'ON', brightness: 120, effect: 'blink', color: { hex: '#ff0000' }, level: 3 },
    capabilities: [
      {
        id: 'cap-bri',
        property: 'brightness',
        kind: 'numeric',
        range: { min: 1, max: 254 },
        access: { write: true },
      },
      { id: 'cap-lq', property: 'linkquality', kind: 'numeric', access: { readOnly: true } },
    ],
    inputs: [
      { id: 'power', type: 'toggle', property: 'state' },
      { id: 'bri', type: 'slider', property: 'brightness', capability_id: 'cap-bri' },
      { id: 'bare', type: 'slider', property: 'level' },
      { id: 'num', type: 'number', property: 'level' },
      { id: 'fx', type: 'select', property: 'effect', options: [{ value: 'blink', label: 'Blink' }] },
      { id: 'col', type: 'color', property: 'color' },
      { id: 'lq', type: 'number', property: 'linkquality', capabilityId: 'cap-lq' },
      { id: 'ro', type: 'toggle', property: 'child_lock', readOnly: true },
      { id: 'ro2', type: 'toggle', property: 'led', access: { write: false } },
      { id: 'ro3', type: 'toggle', property: 'led2', metadata: { access: { readOnly: true } } },
      { id: 'odd', type: 'chart', property: 'x1' },
    ],
  });
  const controls = deviceControls(bulb);

  it('offers writable inputs only, in their order', () => {
    expect(controls.map((control) => `${control.kind}:${control.inputId}`)).toEqual([
      'toggle:power',
      'slider:bri',
      'slider:bare',
      'number:num',
      'select:fx',
      'color:col',
    ]);
  });
  it('reads values from the state', () => {
    expect(controls.map((control) => control.value)).toEqual([true, 120, 3, 3, 'blink', '#FF0000']);
  });
  it('takes the slider range from the input or capability, else the defaults', () => {
    expect(controls[1]).toMatchObject({ min: 1, max: 254, step: 1 });
    expect(controls[2]).toMatchObject({ min: 0, max: 255, step: 1 });
    expect(controls[3]).toMatchObject({ step: 1 });
  });
  it('takes the range from `Range` too', () => {
    const device = deviceFrom({
      id: 'd',
      inputs: [{ id: 't', type: 'slider', property: 'temp', Range: { min: 10, max: 30, step: 0.5 } }],
    });
    expect(deviceControls(device)[0]).toMatchObject({ min: 10, max: 30, step: 0.5 });
  });
  it('splits off the power toggle for the header', () => {
    const { power, others } = splitControls(controls);
    expect(power?.inputId).toBe('power');
    expect(others).toHaveLength(5);
  });
});

describe('deviceControls from capabilities (no inputs)', () => {
  it('offers writable capabilities by kind and never read-only ones', () => {
    const device = deviceFrom({
      id: 'plug',
      state: { state: 'OFF', power: 12 },
      capabilities: [
        { id: 'state', property: 'state', kind: 'binary', access: { write: true } },
        { property: 'power', kind: 'numeric', access: { readOnly: true } },
        { property: 'countdown', kind: 'numeric', access: { set: true } },
        { property: 'brightness', kind: 'numeric', range: { min: 0, max: 100 }, access: { set: true } },
        { property: 'mode', kind: 'enum', enum: ['a', 'b'], access: { write: true } },
        { property: 'color', value_type: 'object', access: { write: true } },
        { property: 'color_xy', value_type: 'object', access: { write: true } },
        { property: 'silent', kind: 'binary' },
      ],
    });
    expect(deviceControls(device).map((control) => `${control.kind}:${control.property}`)).toEqual([
      'toggle:state',
      'number:countdown',
      'slider:brightness',
      'select:mode',
      'color:color',
    ]);
    expect(deviceControls(device)[3]?.options).toEqual([
      { value: 'a', label: 'a' },
      { value: 'b', label: 'b' },
    ]);
  });
});

describe('toggle values', () => {
  it("reads the device's own value_on / value_off before the binary words", () => {
    const device = deviceFrom({
      id: 'lock',
      state: { state: 'LOCK' },
      capabilities: [
        {
          id: 'state',
          property: 'state',
          kind: 'binary',
          access: { write: true },
          metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
        },
      ],
      inputs: [{ id: 'state', type: 'toggle', property: 'state', capability_id: 'state' }],
    });
    expect(deviceControls(device)[0]?.value).toBe(true);
    expect(deviceControls({ ...device, state: { state: 'UNLOCK' } })[0]?.value).toBe(false);
  });
});

describe('binaryReadings', () => {
  it('reads binary capabilities and known binary properties, never the power state', () => {
    const device = deviceFrom({
      id: 'sensor',
      state: {
        state: 'ON',
        contact: false,
        water_leak: true,
        battery_low: 'no',
        child_lock: 'LOCK',
        tamper: null,
      },
      capabilities: [
        { property: 'state', kind: 'binary' },
        { property: 'contact', kind: 'binary' },
        { property: 'child_lock', value_type: 'boolean' },
      ],
    });
    expect(binaryReadings(device)).toEqual([
      { property: 'contact', value: false },
      { property: 'water_leak', value: true },
      { property: 'battery_low', value: false },
    ]);
  });
});

describe('composites, lists and text (beyond docs/devicehub.md#input)', () => {
  const device = deviceFrom(
    rawGroupDevice({
      warning: { mode: 'fire', strobe: true, measured: 3 },
      gradient: ['#FF0000'],
      weekly_schedule: { boost: { enabled: 'ON' } },
      display_text: 'Hello',
    }),
  );
  const controls = deviceControls(device);
  const outline = (control: Control, depth = 0): string[] => [
    `${'  '.repeat(depth)}${control.kind} ${control.property}`,
    ...(control.fields ?? []).flatMap((field) => outline(field, depth + 1)),
    ...(control.item ? outline(control.item, depth + 1) : []),
  ];

  it('a composite is one control with its settable fields, nested composites and lists as fields', () => {
    expect(controls.flatMap((control) => outline(control))).toEqual([
      'composite warning',
      '  select mode',
      '  select level',
      '  toggle strobe',
      '  slider strobe_duty_cycle',
      '  number duration',
      'list gradient',
      '  text hex',
      'composite weekly_schedule',
      '  list dayofweek',
      '    composite day',
      '      select day',
      '  composite boost',
      '    toggle enabled',
      'text display_text',
      'toggle child_lock',
      'toggle led',
    ]);
  });

  it('reads field values from the composite in the state, with the device own on/off values', () => {
    const [warning, gradient, schedule, text] = controls;
    expect(warning!.value).toEqual({ mode: 'fire', strobe: true, measured: 3 });
    expect(warning!.fields!.map((field) => field.value)).toEqual(['fire', null, true, null, null]);
    expect(schedule!.fields![1]!.fields![0]).toMatchObject({ value: true, valueOn: 'ON', valueOff: 'OFF' });
    expect(gradient).toMatchObject({ value: ['#FF0000'], minItems: 1, maxItems: 3 });
    expect(text).toMatchObject({ kind: 'text', value: 'Hello' });
  });

  it('keeps bounds a number input does not have unbounded', () => {
    const duration = controls[0]!.fields![4]!;
    expect([duration.min, duration.max]).toEqual([0, 1800]);
    const bare = deviceControls(
      deviceFrom({ id: 'n', inputs: [{ id: 'n', type: 'number', property: 'n' }] }),
    )[0]!;
    expect([bare.min, bare.max, bare.step]).toEqual([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 1]);
  });

  it('offers no composite without a field and no list without an item', () => {
    const empty = deviceFrom({
      id: 'e',
      inputs: [
        { id: 'c', type: 'composite', property: 'c', features: [] },
        { id: 'l', type: 'list', property: 'l' },
      ],
    });
    expect(deviceControls(empty)).toEqual([]);
  });
});
