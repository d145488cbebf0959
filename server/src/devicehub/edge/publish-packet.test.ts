import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { encodePublish } from './publish-packet.js';

describe('encodePublish', () => {
  it.each([0, 100, 200, 20_000, 3_000_000])('matches the reference encoder for a %i-byte payload', (size) => {
    const topic = 'hearth/devicehub/devices/7c0d-ü';
    const payload = Buffer.alloc(size, 0x61);
    for (const retain of [false, true]) {
      const reference = mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 0, retain, dup: false });
      expect(encodePublish(topic, payload, retain).equals(reference)).toBe(true);
    }
  });
});
