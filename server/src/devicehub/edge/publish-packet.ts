/**
 * The bytes of an MQTT 3.1.1 PUBLISH at QoS 0, built once per message and written unchanged to
 * every subscriber (instead of re-generating the packet for each of them). A string payload is
 * written as UTF-8 straight into the packet (no intermediate Buffer); `payloadOf` gives the
 * payload back as a view of the packet's bytes.
 */
export function encodePublish(topic: string, payload: Buffer | string, retain = false): Buffer {
  const topicLength = Buffer.byteLength(topic);
  const payloadLength = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const remaining = 2 + topicLength + payloadLength;
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
  if (typeof payload === 'string') packet.write(payload, offset, 'utf8');
  else payload.copy(packet, offset);
  return packet;
}

/** The payload of a packet encodePublish built, as a view of its bytes (no copy). */
export function payloadOf(packet: Buffer): Buffer {
  let offset = 1;
  while ((packet[offset++] as number) & 0x80);
  const topicLength = packet.readUInt16BE(offset);
  return packet.subarray(offset + 2 + topicLength);
}
