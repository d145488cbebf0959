import { describe, expect, it } from 'vitest';
import {
  compareDevices,
  deviceStats,
  displayName,
  hasToggle,
  isIgnoredId,
  isListed,
  lastHeard,
  mergeCapabilities,
  parseState,
  rawKey,
  toggleState,
} from './device.model.js';
import { deviceFrom } from './test-devices.js';

describe('device identity (docs/devicehub.md#device)', () => {
  it.each([
    [{ id: 'a' }, 'a'],
    [{ device_id: 'b' }, 'b'],
    [{ deviceId: 'c' }, 'c'],
    [{ id: 7 }, '7'],
    [{ external_id: '0x01' }, 'external:0x01'],
    [{ externalId: '0x02' }, 'external:0x02'],
    [{ externalID: '0x03' }, 'external:0x03'],
    [{ name: 'no id' }, null],
  ])('%j has key %j', (raw, key) => {
    expect(rawKey(raw)).toBe(key);
  });
  it.each([
    ['by-external/0x01', true],
    ['by-external', false],
    ['abc', false],
    [null, false],
  ])('isIgnoredId(%j) = %j', (id, ignored) => {
    expect(isIgnoredId(id)).toBe(ignored);
  });
});

describe('parseState', () => {
  it.each([
    [{ state: 'ON' }, { state: 'ON' }],
    ['{"brightness":12}', { brightness: 12 }],
    ['not json', {}],
    ['[1,2]', {}],
    [null, {}],
    [[1], {}],
  ])('%j → %j', (value, expected) => {
    expect(parseState(value)).toEqual(expected);
  });
});

describe('capabilities merged from state.capabilities (docs/devicehub.md#capability)', () => {
  it('removes duplicates by id, property or name, keeping the first', () => {
    const merged = mergeCapabilities(
      [{ id: 'state', name: 'State' }, { property: 'brightness' }, { name: 'Effect' }],
      [
        { id: 'state', name: 'other' },
        { property: 'brightness', unit: 'x' },
        { name: 'Effect' },
        { id: 'color' },
      ],
    );
    expect(merged).toEqual([
      { id: 'state', name: 'State' },
      { property: 'brightness' },
      { name: 'Effect' },
      { id: 'color' },
    ]);
  });
  it('takes capabilities from a JSON-string state', () => {
    const device = deviceFrom({
      id: 'd',
      state: JSON.stringify({ capabilities: [{ id: 'on', kind: 'binary' }] }),
    });
    expect(device.capabilities).toEqual([{ id: 'on', kind: 'binary' }]);
    expect(device.hasToggle).toBe(true);
  });
});

describe('hasToggle and toggleState (docs/devicehub.md#device-as-the-page-holds-it)', () => {
  it.each([
    [[{ id: 'state' }], true],
    [[{ property: 'on' }], true],
    [[{ property: 'child_lock', value_type: 'boolean' }], true],
    [[{ property: 'occupancy', kind: 'binary' }], true],
    [[{ property: 'brightness', kind: 'numeric' }], false],
    [[], false],
  ])('%j → %j', (capabilities, expected) => {
    expect(hasToggle(capabilities)).toBe(expected);
  });
  it.each([
    [{ state: 'ON' }, true],
    [{ state: 'OFF' }, false],
    [{ on: true }, true],
    [{ on: 'off' }, false],
    [{ brightness: 3 }, null],
  ])('%j → %j', (state, expected) => {
    expect(toggleState(state)).toBe(expected);
  });
});

describe('displayName (docs/devicehub.md#device-as-the-page-holds-it)', () => {
  const fields = (
    name: string | null,
    manufacturer: string | null,
    model: string | null,
    externalId: string | null,
  ) => ({
    name,
    manufacturer,
    model,
    externalId,
  });
  it.each([
    [fields('  Kitchen  ', 'IKEA', 'LED', '0x1'), 'Kitchen'],
    [fields('   ', 'IKEA', 'LED1623', '0x1'), 'IKEA LED1623'],
    [fields(null, 'IKEA', null, '0x1'), 'IKEA'],
    [fields(null, null, null, '0x1'), '0x1'],
    [fields(null, null, null, null), 'the-key'],
  ])('%j → %s', (input, expected) => {
    expect(displayName(input, 'the-key')).toBe(expected);
  });
});

describe('toDevice', () => {
  it('reads every field of docs/devicehub.md#device', () => {
    const device = deviceFrom(
      {
        id: 'lamp',
        external_id: '0xabc',
        name: 'Lamp',
        manufacturer: 'IKEA',
        model: 'LED1623',
        type: 'light',
        protocol: 'zigbee',
        description: { text: 'On the desk' },
        software_build_id: '2.3.0',
        online: true,
        last_seen: '2026-11-22T10:00:00Z',
        created_at: '2026-11-01T10:00:00Z',
        updated_at: '2026-11-02T10:00:00Z',
        state: '{"state":"ON"}',
        capabilities: [{ id: 'state', kind: 'binary' }],
        inputs: [{ id: 'power', type: 'toggle' }],
      },
      { hasMetadata: true, stateUpdatedAt: 5 },
    );
    expect(device).toMatchObject({
      key: 'lamp',
      id: 'lamp',
      externalId: '0xabc',
      displayName: 'Lamp',
      firmware: '2.3.0',
      description: 'On the desk',
      online: true,
      lastSeen: Date.parse('2026-11-22T10:00:00Z'),
      state: { state: 'ON' },
      stateHasValues: true,
      stateUpdatedAt: 5,
      hasToggle: true,
      toggleState: true,
      hasMetadata: true,
    });
    expect(lastHeard(device)).toBe(Date.parse('2026-11-22T10:00:00Z'));
  });
});

describe('listing rule (docs/screens.md#device-list-and-stream)', () => {
  it.each([
    [{ id: 'a' }, false, false],
    [{ id: 'a' }, true, true],
    [{ id: 'a', name: 'x' }, false, true],
    [{ id: 'a', manufacturer: 'x' }, false, true],
    [{ id: 'a', model: 'x' }, false, true],
    [{ id: 'a', description: 'x' }, false, true],
    [{ id: 'a', protocol: 'zigbee' }, false, true],
    [{ id: 'a', capabilities: [{ id: 'x' }] }, false, true],
    [{ id: 'a', inputs: [{ id: 'x' }] }, false, true],
    [{ id: 'a', state: { temperature: 20 } }, false, true],
    [{ id: 'a', state: {} }, false, false],
  ])('%j with metadata %j is listed: %j', (raw, hasMetadata, listed) => {
    expect(isListed(deviceFrom(raw, { hasMetadata }))).toBe(listed);
  });

  it('sorts by display name case-insensitively', () => {
    const names = ['banana', 'Apple', 'cherry', 'apricot'];
    const sorted = names.map((name) => deviceFrom({ id: name, name })).sort(compareDevices);
    expect(sorted.map((device) => device.displayName)).toEqual(['Apple', 'apricot', 'banana', 'cherry']);
  });
});

describe('deviceStats (docs/devicehub.md#device-stats)', () => {
  it('counts online, with state and sensors (a numeric capability)', () => {
    const stats = deviceStats([
      deviceFrom({
        id: 'a',
        online: true,
        state: { temperature: 1 },
        capabilities: [{ property: 'temperature', kind: 'numeric' }],
      }),
      deviceFrom({
        id: 'b',
        online: false,
        capabilities: [{ property: 'brightness', value_type: 'number' }],
      }),
      deviceFrom({
        id: 'c',
        online: true,
        state: { state: 'ON' },
        capabilities: [{ property: 'state', kind: 'binary' }],
      }),
    ]);
    expect(stats).toEqual({ total: 3, online: 2, withState: 2, sensors: 2 });
  });
});
