/**
 * The bytes of an MQTT 3.1.1 PUBLISH at QoS 0, built once per message and written unchanged to
 * every subscriber (instead of re-generating the packet for each of them).
 */
export function encodePublish(topic: string, payload: Buffer, retain = false): Buffer {
  const topicLength = Buffer.byteLength(topic);
  const remaining = 2 + topicLength + payload.length;
  const lengthBytes = remaining < 128 ? 1 : remaining < 16_384 ? 2 : remaining < 2_097_152 ? 3 : 4;
  const packet = Buffer.allocUnsafe(1 + lengthBytes + remaining);
  packet[0] = 0x30 | (retain ? 1 : 0);
  let offset = 1;
  let n = remaining;
  do {
    let digit = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) digit |= 0x80;
    packet[offset++] = digit;
  } while (n > 0);
  packet.writeUInt16BE(topicLength, offset);
  offset += 2;
  offset += packet.write(topic, offset, 'utf8');
  payload.copy(packet, offset);
  return packet;
}
