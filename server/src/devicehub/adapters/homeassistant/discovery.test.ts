import { describe, expect, it } from 'vitest';
import { parseConfig, parseDiscoveryTopic } from './discovery.js';

const parse = (topic: string, payload: unknown) =>
  parseConfig(
    'homeassistant',
    topic,
    Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)),
  );

describe('Home Assistant discovery topics', () => {
  it.each([
    [
      'homeassistant/switch/irrigation/config',
      { kind: 'entity', component: 'switch', nodeId: undefined, objectId: 'irrigation' },
    ],
    [
      'homeassistant/sensor/node1/temp/config',
      { kind: 'entity', component: 'sensor', nodeId: 'node1', objectId: 'temp' },
    ],
    ['homeassistant/device/kitchen/config', { kind: 'device', objectId: 'kitchen' }],
    ['homeassistant/status', undefined],
    ['homeassistant/switch/irrigation/state', undefined],
    ['homeassistant/a/b/c/d/config', undefined],
  ])('%s', (topic, expected) => {
    expect(parseDiscoveryTopic('homeassistant', topic)).toEqual(expected);
  });

  it('takes a prefix of several levels', () => {
    expect(parseDiscoveryTopic('my_home/ha', 'my_home/ha/binary_sensor/node1/object1/config')).toEqual({
      kind: 'entity',
      component: 'binary_sensor',
      nodeId: 'node1',
      objectId: 'object1',
    });
  });
});

describe('Home Assistant discovery configs', () => {
  it('spells out abbreviations (root, dev, o, availability) and puts the base topic where ~ starts or ends a topic', () => {
    const parsed = parse('homeassistant/switch/pump/config', {
      '~': 'garden/pump',
      name: 'Pump',
      cmd_t: '~/set',
      stat_t: 'status/~',
      avty: { t: '~/online', pl_avail: 'true', pl_not_avail: 'false' },
      dev: { ids: 'pump-1', name: 'Garden pump', mf: 'Acme', sa: 'Garden', cns: [['mac', 'aa:bb']] },
      o: { name: 'pump2mqtt', sw: '1.0' },
      qos: '1',
      en: 'true',
      pl_on: true,
    });
    expect(parsed).toMatchObject({
      kind: 'entities',
      entities: [
        {
          discoveryId: 'switch/pump',
          component: 'switch',
          objectId: 'pump',
          config: {
            command_topic: 'garden/pump/set',
            state_topic: 'status/garden/pump',
            availability: [
              { topic: 'garden/pump/online', payload_available: 'true', payload_not_available: 'false' },
            ],
            qos: 1,
            enabled_by_default: true,
            payload_on: true,
          },
          device: {
            identifiers: ['pump-1'],
            name: 'Garden pump',
            manufacturer: 'Acme',
            suggested_area: 'Garden',
            connections: [['mac', 'aa:bb']],
          },
          origin: { name: 'pump2mqtt', sw_version: '1.0' },
        },
      ],
    });
  });

  it('reads a device-based config: shared options at the root, one entity per component, a component reduced to its platform removed', () => {
    const parsed = parse('homeassistant/device/meter/config', {
      dev: { ids: ['meter-1'], name: 'Meter' },
      stat_t: 'meter/state',
      qos: 2,
      cmps: {
        power: { p: 'sensor', unit_of_meas: 'W', val_tpl: '{{ value_json.power }}' },
        relay: { platform: 'switch', cmd_t: 'meter/set' },
        old: { p: 'sensor' },
      },
    });
    expect(parsed).toMatchObject({
      kind: 'entities',
      removed: ['device/meter/old'],
      problems: [],
      entities: [
        {
          discoveryId: 'device/meter/power',
          component: 'sensor',
          objectId: 'power',
          config: { state_topic: 'meter/state', qos: 2 },
        },
        {
          discoveryId: 'device/meter/relay',
          component: 'switch',
          objectId: 'relay',
          config: { command_topic: 'meter/set' },
        },
      ],
    });
  });

  it.each([
    // [why, payload, reason]
    ['not JSON', '{"name":', 'config is not JSON'],
    ['not an object', '[1]', 'config is not a JSON object'],
    [
      'a switch without a command topic',
      { name: 'x', state_topic: 'a' },
      'required key command_topic is missing',
    ],
    [
      'availability as text',
      { command_topic: 'a', availability: 'incorrect' },
      'availability must be a list of {topic, …}',
    ],
    [
      'availability as a number',
      { command_topic: 'a', availability: 1 },
      'availability must be a list of {topic, …}',
    ],
    [
      'a command topic with a wildcard',
      { command_topic: 'a/+/set' },
      'command_topic must not contain a wildcard',
    ],
    ['a bad qos', { command_topic: 'a', qos: 5 }, 'qos must be 0, 1 or 2'],
    ['a number that is not one', { command_topic: 'a', min: 'low' }, 'min must be a number'],
  ])('refuses %s', (_why, payload, reason) => {
    expect(parse('homeassistant/switch/x/config', payload)).toEqual({ kind: 'rejected', reason });
  });

  it.each([
    ['an empty config', '', { kind: 'remove' }],
    ['the migration marker', { migrate_discovery: true }, { kind: 'marker' }],
    [
      'a component Hearth does not show',
      { topic: 'a' },
      { kind: 'rejected', reason: 'component camera is not supported', quiet: true },
    ],
  ])('reads %s', (_what, payload, expected) => {
    const topic = (payload as { topic?: string }).topic
      ? 'homeassistant/camera/x/config'
      : 'homeassistant/switch/x/config';
    expect(parse(topic, payload)).toEqual(expected);
  });

  it('refuses a config over 64 KB', () => {
    expect(parse('homeassistant/sensor/x/config', { state_topic: 'a', name: 'x'.repeat(70_000) })).toEqual({
      kind: 'rejected',
      reason: 'config larger than 65536 bytes',
    });
  });

  it('tolerates what real producers send: ids as text, availability: [], a name of null', () => {
    const parsed = parse('homeassistant/sensor/x/config', {
      state_topic: 'a',
      name: null,
      availability: [],
      device: { identifiers: 'only-one' },
    });
    expect(parsed).toMatchObject({
      kind: 'entities',
      entities: [{ device: { identifiers: ['only-one'] }, config: { availability: [] } }],
    });
  });
});
