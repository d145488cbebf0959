import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../simulator/catalog.js';
import { bridgeDevicesFixture } from './fixtures/scripted-zigbee2mqtt.js';
import { STANDARD_STATE_KEYS, stateKeysOf } from './state-keys.js';

const exposed = (exposes: unknown) =>
  [...stateKeysOf(exposes)].filter((k) => !STANDARD_STATE_KEYS.includes(k));

describe('state keys of a device', () => {
  it.each([
    ['nothing but the standard keys for no exposes', undefined, []],
    [
      'properties of specific groups, with their endpoints',
      [
        { type: 'switch', features: [{ type: 'binary', name: 'state', property: 'state_l1' }] },
        { type: 'numeric', name: 'power', property: 'power' },
      ],
      ['state_l1', 'power'],
    ],
    [
      'composites keyed by their property, and their features',
      [
        {
          type: 'composite',
          name: 'color_xy',
          property: 'color',
          features: [
            { type: 'numeric', name: 'x', property: 'x' },
            { type: 'numeric', name: 'y', property: 'y' },
          ],
        },
        {
          type: 'composite',
          name: 'level_config',
          property: 'level_config',
          features: [{ type: 'numeric', name: 'on_off_transition_time', property: 'on_off_transition_time' }],
        },
        { type: 'composite', name: 'warning', property: 'warning', features: [] },
      ],
      ['color', 'x', 'y', 'level_config', 'on_off_transition_time', 'warning'],
    ],
    [
      'lists and texts',
      [
        {
          type: 'list',
          name: 'schedule',
          property: 'schedule',
          item_type: { type: 'numeric', name: 'dayTime' },
        },
        { type: 'text', name: 'action_zone', property: 'action_zone' },
      ],
      ['schedule', 'dayTime', 'action_zone'],
    ],
  ])('%s', (_name, exposes, keys) => {
    expect(exposed(exposes)).toEqual(keys);
    for (const key of ['linkquality', 'last_seen', 'update', 'elapsed', 'device']) {
      expect(stateKeysOf(exposes).has(key)).toBe(true);
    }
  });

  it('lets through every key the simulator and the fixture devices report', () => {
    for (const template of TEMPLATES) {
      const keys = stateKeysOf(template.exposes);
      expect(
        Object.keys(template.state).filter((key) => !keys.has(key)),
        template.name,
      ).toEqual([]);
    }
    const lamp = bridgeDevicesFixture().find((d) => d.friendly_name === 'Living room/Lamp') as {
      definition: { exposes: unknown };
    };
    expect(exposed(lamp.definition.exposes)).toEqual(
      expect.arrayContaining(['state', 'brightness', 'color']),
    );
  });
});
