import { describe, expect, it } from 'vitest';
import { discoveryTopic, fullTopicOf, parseConfig, parseSensors } from './discovery.js';
import { discoveryConfig, MAC, sensorsMessage } from './fixtures/tasmota-discovery.js';

const buffer = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('Tasmota discovery topics', () => {
  it.each([
    ['tasmota/discovery/A4CF12D3E5F6/config', { mac: 'A4CF12D3E5F6', kind: 'config' }],
    ['tasmota/discovery/A4CF12D3E5F6/sensors', { mac: 'A4CF12D3E5F6', kind: 'sensors' }],
    ['tasmota/discovery/A4CF12D3E5F6/other', undefined],
    ['tasmota/discovery/a4cf12d3e5f6/config', undefined],
    ['tasmota/discovery/A4CF/12/config', undefined],
    ['elsewhere/A4CF12D3E5F6/config', undefined],
  ])('%s', (topic, expected) => {
    expect(discoveryTopic('tasmota/discovery', topic)).toEqual(expected);
  });
});

describe('Tasmota discovery config', () => {
  it('reads a config: names, topics, relays, options, and the state texts', () => {
    const parsed = parseConfig(MAC, buffer(discoveryConfig()));
    expect(parsed.kind).toBe('config');
    if (parsed.kind !== 'config') return;
    expect(parsed.config).toMatchObject({
      mac: MAC,
      deviceName: 'Hall lamp',
      topic: 'hall_lamp',
      model: 'Sonoff Basic R2',
      firmware: '13.4.0',
      online: 'Online',
      offline: 'Offline',
      stateTexts: ['OFF', 'ON', 'TOGGLE', 'HOLD'],
      // Without the padding firmware adds (8 of everything).
      relays: [1],
      switchModes: [],
      friendlyNames: ['Hall lamp'],
      linked: true,
      tuya: false,
      ifan: false,
    });
  });

  it('keeps the SetOptions it reads', () => {
    const parsed = parseConfig(
      MAC,
      buffer(discoveryConfig({ so: { ...discoveryConfig().so, '20': 1, '82': 1 } })),
    );
    if (parsed.kind !== 'config') throw new Error(parsed.kind);
    expect(Object.fromEntries(parsed.config.options)).toEqual({
      '20': 1,
      '30': 0,
      '68': 0,
      '82': 1,
      '117': 0,
    });
  });

  it.each([
    ['%prefix%/%topic%/', { cmnd: 'cmnd/hall_lamp/', stat: 'stat/hall_lamp/', tele: 'tele/hall_lamp/' }],
    ['%topic%/%prefix%/', { cmnd: 'hall_lamp/cmnd/', stat: 'hall_lamp/stat/', tele: 'hall_lamp/tele/' }],
    [
      'home/%hostname%/%prefix%',
      {
        cmnd: 'home/hall-lamp-5830/cmnd/',
        stat: 'home/hall-lamp-5830/stat/',
        tele: 'home/hall-lamp-5830/tele/',
      },
    ],
    ['%prefix%/%id%/', { cmnd: 'cmnd/D3E5F6/', stat: 'stat/D3E5F6/', tele: 'tele/D3E5F6/' }],
  ])('builds full topics from ft %s and tp', (ft, expected) => {
    const parsed = parseConfig(MAC, buffer(discoveryConfig({ ft })));
    if (parsed.kind !== 'config') throw new Error(parsed.kind);
    expect({
      cmnd: fullTopicOf(parsed.config, 'cmnd'),
      stat: fullTopicOf(parsed.config, 'stat'),
      tele: fullTopicOf(parsed.config, 'tele'),
    }).toEqual(expected);
  });

  it('takes tp prefixes of its own', () => {
    const parsed = parseConfig(MAC, buffer(discoveryConfig({ tp: ['c', 's', 't'] })));
    if (parsed.kind !== 'config') throw new Error(parsed.kind);
    expect(fullTopicOf(parsed.config, 'tele')).toBe('t/hall_lamp/');
  });

  it('reads an empty message as the device removed', () => {
    expect(parseConfig(MAC, Buffer.alloc(0))).toEqual({ kind: 'remove' });
  });

  it('tolerates what older firmware leaves out (if, swn, sho, sht, bat) and numbers as text', () => {
    const {
      if: _if,
      swn: _swn,
      sho: _sho,
      sht: _sht,
      bat: _bat,
      dslp: _dslp,
      ...old
    } = discoveryConfig({ sw: '9.1.0' });
    const parsed = parseConfig(MAC, buffer({ ...old, lt_st: '2' }));
    expect(parsed).toMatchObject({
      kind: 'config',
      config: { ifan: false, switchNames: [], lightSubtype: 2 },
    });
  });

  it.each([
    ['not JSON', '{"dn": "x"', 'not JSON'],
    ['not an object', '[1, 2]', 'not a JSON object'],
    ['another version', discoveryConfig({ ver: 2 }), 'version 2 is not supported'],
    ['no topic', { ...discoveryConfig(), t: undefined }, 't is missing'],
    [
      'a MAC of another device',
      discoveryConfig({ mac: '000000000001' }),
      "mac 000000000001 does not match the topic's A4CF12D3E5F6",
    ],
    [
      'a wildcard in its topic',
      discoveryConfig({ t: 'hall/+' }),
      'the cmnd topic cmnd/hall/+/ is not a topic Hearth can use',
    ],
    ['too few prefixes', discoveryConfig({ tp: ['cmnd'] }), 'tp must name cmnd, stat and tele'],
    [
      'relays that are not numbers',
      discoveryConfig({ rl: ['on'] as unknown as number[] }),
      'rl[0] is not valid',
    ],
    ['an unknown light type', discoveryConfig({ lt_st: 9 }), 'lt_st 9 is not a light type'],
    ['more than 64 KB', { ...discoveryConfig(), padding: 'x'.repeat(65 * 1024) }, 'larger than 65536 bytes'],
  ])('refuses a config with %s, saying why', (_case, payload, reason) => {
    expect(parseConfig(MAC, buffer(payload))).toEqual({ kind: 'rejected', reason });
  });
});

describe('Tasmota discovery sensors', () => {
  it('reads the sensors a device announces, and an empty message as none', () => {
    const message = sensorsMessage({ AM2301: { Temperature: 21.3, Humidity: 48.2 }, TempUnit: 'C' });
    expect(parseSensors(buffer(message))).toEqual({ kind: 'sensors', sensors: message.sn });
    expect(parseSensors(Buffer.alloc(0))).toEqual({ kind: 'remove' });
  });

  it.each([
    ['not JSON', 'sn', 'not JSON'],
    ['no sn', { ver: 1 }, 'sn must be an object'],
    ['another version', { sn: {}, ver: 3 }, 'version 3 is not supported'],
  ])('refuses sensors with %s', (_case, payload, reason) => {
    expect(parseSensors(buffer(payload))).toEqual({ kind: 'rejected', reason });
  });
});
