import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { encodePublish, payloadOf } from './publish-packet.js';

describe('encodePublish', () => {
  it.each([0, 100, 200, 20_000, 3_000_000])('matches the reference encoder for a %i-byte payload', (size) => {
    const topic = 'hearth/devicehub/devices/7c0d-ü';
    const payload = Buffer.alloc(size, 0x61);
    for (const retain of [false, true]) {
      const reference = mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 0, retain, dup: false });
      expect(encodePublish(topic, payload, retain).equals(reference)).toBe(true);
    }
  });

  it.each([0, 1, 125, 20_000])('writes a string payload of %i characters as its UTF-8 bytes', (size) => {
    const topic = 'hearth/devicehub/devices/7c0d';
    // Multi-byte characters: the length prefix counts bytes, not characters.
    const text = '{"name":"Küche ☕"}'.repeat(size).slice(0, size);
    const payload = Buffer.from(text, 'utf8');
    const reference = mqttPacket.generate({
      cmd: 'publish',
      topic,
      payload,
      qos: 0,
      retain: true,
      dup: false,
    });
    const packet = encodePublish(topic, text, true);
    expect(packet.equals(reference)).toBe(true);
    expect(payloadOf(packet).equals(payload)).toBe(true);
  });
});
