import { describe, expect, it } from 'vitest';
import { buildCommand, coverPart } from './commands.js';
import { deviceControls, splitControls } from './controls.js';
import { lockOf } from './lock.js';
import { deviceFrom } from './test-devices.js';

const writable = { readOnly: false, write: true, set: true };
const readOnly = { readOnly: true, write: false, set: false };

/** Zigbee2MQTT's lock as the hub lists it: `state` LOCK / UNLOCK and `lock_state`. */
const z2mLock = (state: Record<string, unknown>) =>
  deviceFrom({
    id: 'door',
    name: 'Front door lock',
    type: 'lock',
    state,
    capabilities: [
      {
        id: 'state',
        property: 'state',
        kind: 'binary',
        type: 'lock',
        access: writable,
        metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
      },
      {
        id: 'lock_state',
        property: 'lock_state',
        kind: 'enum',
        type: 'lock',
        access: readOnly,
        enum: ['not_fully_locked', 'locked', 'unlocked'],
      },
    ],
    inputs: [
      {
        id: 'state',
        type: 'toggle',
        property: 'state',
        capability_id: 'state',
        label: 'State',
        access: writable,
        metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
      },
    ],
  });

/** Home Assistant's lock: one composite of `state` and the write-only `command`. */
const haLock = (state: unknown) =>
  deviceFrom({
    id: 'gate',
    name: 'Gate',
    type: 'lock',
    state: { gate: { state } },
    capabilities: [{ id: 'gate', property: 'gate', kind: 'composite', type: 'lock', access: writable }],
    inputs: [
      {
        id: 'gate',
        type: 'composite',
        property: 'gate',
        label: 'Gate',
        access: writable,
        features: [
          {
            id: 'command',
            type: 'select',
            property: 'command',
            label: 'Command',
            access: writable,
            options: [{ value: 'lock' }, { value: 'unlock' }, { value: 'open' }],
          },
        ],
      },
    ],
  });

describe('locks read Locked / Unlocked, never a power switch (docs/screens.md#locks)', () => {
  it.each([
    [{ state: 'LOCK', lock_state: 'locked' }, 'locked'],
    [{ state: 'UNLOCK', lock_state: 'unlocked' }, 'unlocked'],
    [{ state: 'LOCK', lock_state: 'not_fully_locked' }, 'jammed'],
    [{}, 'unknown'],
  ])("Zigbee2MQTT's %j is %s", (state, status) => {
    const device = z2mLock(state);
    const controls = deviceControls(device);
    const lock = lockOf(device, controls);
    expect(lock?.status).toBe(status);
    expect(lock?.unlock).toEqual({ input: { id: 'state', value: false }, state: { on: false } });
    expect(lock?.lock).toEqual({ input: { id: 'state', value: true }, state: { on: true } });
    // Its switch is the lock's: nothing left for the power switch.
    expect(splitControls(controls.filter((c) => c !== lock?.control)).power).toBeNull();
  });

  it.each([
    ['locked', 'locked'],
    ['jammed', 'jammed'],
    ['unlocking', 'unlocking'],
  ])("Home Assistant's %s is %s, and sends its commands", (state, status) => {
    const device = haLock(state);
    const lock = lockOf(device, deviceControls(device));
    expect(lock?.status).toBe(status);
    expect(lock?.unlock).toEqual({
      input: { id: 'gate', value: { command: 'unlock' } },
      state: { gate: { command: 'unlock' } },
    });
  });

  it('leaves a child lock (a setting of a fan) alone', () => {
    const device = deviceFrom({
      id: 'fan',
      type: 'fan',
      state: { child_lock: 'LOCK' },
      capabilities: [
        {
          id: 'child_lock',
          property: 'child_lock',
          kind: 'binary',
          type: 'binary',
          access: writable,
          metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
        },
      ],
    });
    expect(lockOf(device, deviceControls(device))).toBeNull();
  });
});

describe('covers get Open / Stop / Close beside their position (docs/screens.md#covers)', () => {
  const blind = deviceFrom({
    id: 'blind',
    name: 'Bedroom blind',
    type: 'cover',
    state: { state: 'OPEN', position: 100 },
    capabilities: [
      {
        id: 'state',
        property: 'state',
        kind: 'enum',
        type: 'cover',
        access: writable,
        enum: ['OPEN', 'CLOSE', 'STOP'],
      },
      {
        id: 'position',
        property: 'position',
        kind: 'numeric',
        type: 'cover',
        unit: '%',
        range: { min: 0, max: 100 },
        access: writable,
      },
    ],
    inputs: [
      {
        id: 'state',
        type: 'select',
        property: 'state',
        label: 'State',
        access: writable,
        options: [
          { value: 'OPEN', label: 'OPEN' },
          { value: 'CLOSE', label: 'CLOSE' },
          { value: 'STOP', label: 'STOP' },
        ],
      },
      {
        id: 'position',
        type: 'slider',
        property: 'position',
        label: 'Position',
        range: { min: 0, max: 100 },
        access: writable,
        metadata: { unit: '%' },
      },
    ],
  });

  it('makes one control of the select and the slider, sending each part as before', () => {
    const controls = deviceControls(blind);
    expect(controls.map((c) => [c.kind, c.label])).toEqual([['cover', 'Position']]);
    const [cover] = controls;
    expect(buildCommand(cover!, coverPart('actions', 'STOP'))).toEqual({
      input: { id: 'state', value: 'STOP' },
      state: { state: 'STOP' },
    });
    expect(buildCommand(cover!, coverPart('position', 40))).toEqual({
      input: { id: 'position', value: 40 },
      state: { position: 40 },
    });
  });

  it("puts a Home Assistant cover's parts inside its object", () => {
    const device = deviceFrom({
      id: 'garage',
      type: 'cover',
      capabilities: [{ id: 'door', property: 'door', kind: 'composite', type: 'cover', access: writable }],
      inputs: [
        {
          id: 'door',
          type: 'composite',
          property: 'door',
          access: writable,
          features: [
            {
              id: 'command',
              type: 'select',
              property: 'command',
              access: writable,
              options: [{ value: 'open' }, { value: 'close' }, { value: 'stop' }],
            },
            {
              id: 'position',
              type: 'slider',
              property: 'position',
              range: { min: 0, max: 100 },
              access: writable,
            },
          ],
        },
      ],
    });
    const [cover] = deviceControls(device);
    expect(cover?.kind).toBe('cover');
    expect(buildCommand(cover!, coverPart('actions', 'close'))).toEqual({
      input: { id: 'door', value: { command: 'close' } },
      state: { door: { command: 'close' } },
    });
  });

  it('leaves any other select alone', () => {
    const device = deviceFrom({
      id: 'bulb',
      inputs: [
        {
          id: 'effect',
          type: 'select',
          property: 'effect',
          access: writable,
          options: [{ value: 'blink' }, { value: 'okay' }],
        },
      ],
    });
    expect(deviceControls(device).map((c) => c.kind)).toEqual(['select']);
  });
});
