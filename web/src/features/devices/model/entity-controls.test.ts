import { describe, expect, it } from 'vitest';
import { buildCommand, coverPart } from './commands.js';
import { CommandConfirmation, commandChecks } from './confirm.js';
import { type Control, deviceControls, splitControls } from './controls.js';
import { lockOf } from './lock.js';
import { type SourceDevice, sourceDevice } from './source-devices.js';

// docs/screens.md#devices-of-other-sources: the tiles' controls for Home Assistant discovery,
// Tasmota and Shelly devices, and what each sends.

const summary = (control: Control) => [control.kind, control.label, control.within?.property ?? null];
const controlsOf = (name: SourceDevice) => {
  const { power, others } = splitControls(deviceControls(sourceDevice(name)));
  return { power: power && summary(power), others: others.map(summary) };
};

describe('the controls of another source', () => {
  it.each<[SourceDevice, unknown, unknown[]]>([
    [
      'thermostat',
      null,
      [
        ['select', 'Mode', 'thermostat'],
        ['slider', 'Target temperature', 'thermostat'],
        ['select', 'Preset', 'thermostat'],
      ],
    ],
    [
      'lamp',
      ['toggle', 'Desk lamp', 'light'],
      [
        ['slider', 'Brightness', 'light'],
        ['slider', 'Color temperature', 'light'],
        ['color', 'Color', 'light'],
        ['select', 'Effect', 'light'],
      ],
    ],
    [
      'fan',
      ['toggle', 'Ceiling fan', 'fan'],
      [
        ['slider', 'Speed', 'fan'],
        ['select', 'Preset', 'fan'],
        ['toggle', 'Oscillation', 'fan'],
      ],
    ],
    ['blind', null, [['cover', 'Bedroom blind', null]]],
    [
      'robot',
      null,
      [
        ['actions', 'Command', 'vacuum'],
        ['select', 'Fan speed', 'vacuum'],
      ],
    ],
    ['alarm', null, [['alarm', 'House alarm', null]]],
    ['hub', null, [['update', 'Firmware', null]]],
    ['bell', null, [['actions', 'Restart', null]]],
    [
      'siren',
      ['toggle', 'Siren', 'siren'],
      [
        ['select', 'Tone', 'siren'],
        ['slider', 'Volume', 'siren'],
        ['number', 'Duration', 'siren'],
      ],
    ],
    ['valve', null, [['cover', 'Garden valve', null]]],
    [
      'eq',
      null,
      [
        ['slider', 'Level', null],
        ['select', 'Mode', null],
        ['text', 'Label', null],
      ],
    ],
    ['plug', ['toggle', 'Relay', null], []],
    // The fade time only qualifies another value: never a control of its own.
    ['dimmer', ['toggle', 'Hall lamp', 'light'], [['slider', 'Brightness', 'light']]],
    ['shutter', null, [['cover', 'Cover', null]]],
  ])('%s: power %j, then %j', (name, power, others) => {
    expect(controlsOf(name)).toEqual({ power, others });
  });

  it('names each part by its entity when a device has several', () => {
    const device = sourceDevice('lamp');
    const second = structuredClone(device.capabilities[0]!);
    second.id = 'reading';
    second.property = 'reading';
    second.name = 'Reading light';
    const input = structuredClone(device.inputs[0]!);
    input.id = 'reading';
    input.property = 'reading';
    input.capability_id = 'reading';
    input.label = 'Reading light';
    const two = {
      ...device,
      capabilities: [...device.capabilities, second],
      inputs: [...device.inputs, input],
    };
    const labels = deviceControls(two).map((control) => control.label);
    expect(labels).toEqual([
      'Desk lamp',
      'Brightness (Desk lamp)',
      'Color temperature (Desk lamp)',
      'Color (Desk lamp)',
      'Effect (Desk lamp)',
      'Reading light',
      'Brightness (Reading light)',
      'Color temperature (Reading light)',
      'Color (Reading light)',
      'Effect (Reading light)',
    ]);
  });

  it('reads each part from the composite, a colour from its hue and saturation', () => {
    const controls = deviceControls(sourceDevice('lamp'));
    expect(controls.map((control) => control.value)).toEqual([true, 128, 300, '#FF8000', 'rainbow']);
  });

  it('keeps Zigbee2MQTT-shaped composites whole on other devices (no source)', () => {
    const device = { ...sourceDevice('lamp'), protocol: 'zigbee' };
    expect(deviceControls(device).map((control) => control.kind)).toEqual(['composite']);
  });
});

const command = (name: SourceDevice, pick: (controls: Control[]) => Control | undefined, value: unknown) => {
  const control = pick(deviceControls(sourceDevice(name)));
  if (!control) throw new Error(`no control on ${name}`);
  return buildCommand(control, value);
};
const byLabel = (label: string) => (controls: Control[]) => controls.find((c) => c.label === label);

describe('what the controls of another source send', () => {
  it.each<[string, SourceDevice, (controls: Control[]) => Control | undefined, unknown, unknown]>([
    [
      'a climate mode, inside the climate',
      'thermostat',
      byLabel('Mode'),
      'cool',
      { input: { id: 'thermostat', value: { mode: 'cool' } }, state: { thermostat: { mode: 'cool' } } },
    ],
    [
      'a target temperature',
      'thermostat',
      byLabel('Target temperature'),
      22.5,
      {
        input: { id: 'thermostat', value: { target_temperature: 22.5 } },
        state: { thermostat: { target_temperature: 22.5 } },
      },
    ],
    [
      'a light off by its power switch',
      'lamp',
      byLabel('Desk lamp'),
      false,
      { input: { id: 'light', value: { state: false } }, state: { light: { state: false } } },
    ],
    [
      'a brightness that also switches it on',
      'lamp',
      byLabel('Brightness'),
      200,
      {
        input: { id: 'light', value: { brightness: 200, state: true } },
        state: { light: { brightness: 200, state: true } },
      },
    ],
    [
      'a colour, on',
      'lamp',
      byLabel('Color'),
      '#00ff00',
      {
        input: { id: 'light', value: { color: '#00FF00', state: true } },
        state: { light: { color: '#00FF00', state: true } },
      },
    ],
    [
      'a Tasmota dimmer at 0 %: off',
      'dimmer',
      byLabel('Brightness'),
      0,
      {
        input: { id: 'light', value: { brightness: 0, state: false } },
        state: { light: { brightness: 0, state: false } },
      },
    ],
    [
      "a vacuum's action",
      'robot',
      byLabel('Command'),
      'return_to_base',
      {
        input: { id: 'vacuum', value: { command: 'return_to_base' } },
        state: { vacuum: { command: 'return_to_base' } },
      },
    ],
    [
      "a button's press",
      'bell',
      byLabel('Restart'),
      'press',
      { input: { id: 'restart', value: 'press' }, state: { restart: 'press' } },
    ],
    [
      'a Home Assistant switch as power',
      'plug',
      byLabel('Relay'),
      false,
      { input: { id: 'relay', value: false }, state: { relay: false } },
    ],
    [
      "an alarm panel's arm with its code",
      'alarm',
      (controls) => controls[0],
      { action: 'arm_away', code: '1234' },
      {
        input: { id: 'panel', value: { command: 'arm_away', code: '1234' } },
        state: { panel: { command: 'arm_away', code: '1234' } },
      },
    ],
    [
      "an update's install",
      'hub',
      (controls) => controls[0],
      'install',
      {
        input: { id: 'firmware', value: { command: 'install' } },
        state: { firmware: { command: 'install' } },
      },
    ],
    [
      "a cover's tilt",
      'blind',
      (controls) => controls[0],
      coverPart('tilt', 45),
      { input: { id: 'cover', value: { tilt: 45 } }, state: { cover: { tilt: 45 } } },
    ],
    [
      "a Shelly cover's Close",
      'shutter',
      (controls) => controls[0],
      coverPart('actions', 'close'),
      { input: { id: 'cover', value: { command: 'close' } }, state: { cover: { command: 'close' } } },
    ],
  ])('%s', (_what, name, pick, value, expected) => {
    expect(command(name, pick, value)).toEqual(expected);
  });

  it('counts a part command done when the composite reports that part', () => {
    const lamp = sourceDevice('lamp');
    const sent = command('lamp', byLabel('Brightness'), 60) as NonNullable<ReturnType<typeof command>>;
    const confirmation = new CommandConfirmation(commandChecks(lamp, sent));
    expect(confirmation.report({ light: { state: true, brightness: 128 } })).toBe(false);
    expect(confirmation.report({ light: { state: true, brightness: 60 } })).toBe(true);
  });

  it('leaves a Home Assistant lock to the lock control', () => {
    const gate = sourceDevice('lamp');
    expect(lockOf(gate, deviceControls(gate))).toBeNull();
  });
});
