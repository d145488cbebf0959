import { describe, expect, it } from 'vitest';
import { forgetTopicOf } from './sources.service.js';

// docs/api.md#sources: which retained topic Forget clears for a message a source refused.
describe('forgetTopicOf', () => {
  it.each([
    ['homeassistant', 'homeassistant/switch/ghost/config', 'homeassistant/switch/ghost/config'],
    ['homeassistant', 'homeassistant/device/plug/config', 'homeassistant/device/plug/config'],
    ['homeassistant', 'homeassistant/plug/state', null],
    ['tasmota', 'tasmota/discovery/A4CF12D3E5F6/config', 'tasmota/discovery/A4CF12D3E5F6/config'],
    ['tasmota', 'tasmota/discovery/A4CF12D3E5F6/sensors', 'tasmota/discovery/A4CF12D3E5F6/sensors'],
    ['shelly', 'shellyplus1-a8032ab12345/events/rpc', 'shellyplus1-a8032ab12345/online'],
    ['shelly', 'home/shellyplus1-a8032ab12345/status/switch:0', 'home/shellyplus1-a8032ab12345/online'],
    ['shelly', 'shellyplus1-a8032ab12345/online', 'shellyplus1-a8032ab12345/online'],
    ['shelly', 'shellyplus1-a8032ab12345/rpc', null],
    ['zigbee', 'zigbee2mqtt/bridge/devices', null],
  ] as const)('%s %s → %s', (protocol, topic, expected) => {
    expect(forgetTopicOf(protocol, topic)).toBe(expected);
  });
});
