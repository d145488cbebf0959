/**
 * Follows MQTT packet boundaries in the bytes a client sends and reports a packet larger than
 * the limit as soon as its fixed header is read, before the body is buffered or parsed.
 */
export class PacketLengthGuard {
  /** Body bytes of the current packet not seen yet. */
  private remaining = 0;
  /** Fixed-header bytes of the next packet read so far (type byte + length varint). */
  private header: number[] = [];

  constructor(private readonly maxPacketBytes: number) {}

  /** False when `data` starts or continues a packet over the limit (or a malformed length). */
  accept(data: Uint8Array): boolean {
    let i = 0;
    while (i < data.length) {
      if (this.remaining > 0) {
        const skipped = Math.min(this.remaining, data.length - i);
        this.remaining -= skipped;
        i += skipped;
        continue;
      }
      const byte = data[i++] as number;
      this.header.push(byte);
      if (this.header.length === 1) continue;
      if (byte & 0x80) {
        // The remaining length is at most four bytes.
        if (this.header.length === 5) return false;
        continue;
      }
      let length = 0;
      let multiplier = 1;
      for (let k = 1; k < this.header.length; k++) {
        length += ((this.header[k] as number) & 0x7f) * multiplier;
        multiplier *= 128;
      }
      if (this.header.length + length > this.maxPacketBytes) return false;
      this.remaining = length;
      this.header = [];
    }
    return true;
  }
}
