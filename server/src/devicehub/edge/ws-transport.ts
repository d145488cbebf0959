import { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import type { UserRecord } from '../../users/index.js';
import { PacketLengthGuard } from './packet-length-guard.js';
import { matchesFilter } from './topic-matcher.js';

export type DropReason = 'packet too large' | 'text frame' | 'slow consumer';

export interface TransportOptions {
  maxPacketBytes: number;
  maxQueuedBytes: number;
  onDrop: (reason: DropReason) => void;
}

/** What the upgrade learnt about a connection, read again when its CONNECT arrives. */
export interface ConnectionSession {
  /** The resident/admin of the `auth_token` cookie, if the upgrade carried a valid one. */
  cookieUser: UserRecord | undefined;
  /** The signed-in user once CONNECT was accepted. */
  user?: UserRecord;
  /** Set by preConnect when the CONNECT carried a will message (refused at authenticate). */
  willRequested?: boolean;
  /** The Aedes client once its session is established: its subscriptions by topic filter. */
  client?: { subscriptions: Record<string, unknown> };
}

/**
 * An MQTT byte stream over one WebSocket for Aedes. mqtt-packet writes each packet as several
 * small chunks; a naive bridge sends a frame (and a system call) per chunk, which made it four
 * times slower than Mosquitto. Here everything written during one turn of the event loop (every
 * packet delivered while handling one read from the bus) leaves as ONE binary frame, flushed by
 * setImmediate. Writes never wait: bytes a browser is not reading pile up in its socket, and a
 * browser over maxQueuedBytes is dropped, so one stalled browser never holds up the others.
 */
export class WebSocketTransport extends Duplex {
  private readonly guard: PacketLengthGuard;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushScheduled = false;
  private dropped = false;

  constructor(
    private readonly socket: WebSocket,
    readonly session: ConnectionSession,
    private readonly options: TransportOptions,
  ) {
    super({ allowHalfOpen: false, writableHighWaterMark: options.maxQueuedBytes });
    this.guard = new PacketLengthGuard(options.maxPacketBytes);
    socket.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    socket.on('close', () => this.destroy());
    socket.on('error', () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return (this.socket as unknown as { _socket?: { remoteAddress?: string } })._socket?.remoteAddress;
  }

  private receive(data: Buffer, isBinary: boolean) {
    // MQTT over WebSocket is binary only (MQTT 3.1.1, 6.0).
    if (!isBinary) return this.dropConnection('text frame');
    if (!this.guard.accept(data)) return this.dropConnection('packet too large');
    if (!this.push(data)) this.socket.pause();
  }

  private dropConnection(reason: DropReason) {
    this.dropped = true;
    this.options.onDrop(reason);
    this.socket.terminate();
    this.destroy();
  }

  override _read() {
    if (this.socket.isPaused) this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.queue(chunk);
    callback();
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void) {
    for (const { chunk } of chunks) this.queue(chunk);
    callback();
  }

  /** Whether one of the client's subscriptions matches the topic. */
  subscribedTo(topic: string): boolean {
    const subscriptions = this.session.client?.subscriptions;
    if (!subscriptions) return false;
    for (const filter in subscriptions) if (matchesFilter(filter, topic)) return true;
    return false;
  }

  /** Queues the bytes of a whole MQTT packet, sent with everything else written this turn. */
  writePacket(packet: Buffer) {
    this.queue(packet);
  }

  private queue(chunk: Buffer) {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  }

  /**
   * Sends everything written since the last flush as one frame (one write to the socket). A
   * browser still holding more than maxQueuedBytes of earlier frames has stopped reading: it is
   * dropped, so a burst is always accepted but a stalled browser never piles up more than the
   * limit plus one turn's worth.
   */
  private readonly flush = () => {
    this.flushScheduled = false;
    if (this.pendingBytes === 0 || this.socket.readyState !== WebSocket.OPEN) return;
    if (this.socket.bufferedAmount > this.options.maxQueuedBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.dropConnection('slow consumer');
      return;
    }
    const data =
      this.pending.length === 1
        ? (this.pending[0] as Buffer)
        : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.socket.send(data, { binary: true, compress: false });
  };

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    // What Aedes wrote just before closing (a refusing CONNACK) still goes out, then the close.
    if (!this.dropped) this.flush();
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
      // A peer that never answers the close handshake must not keep the socket.
      setTimeout(() => this.socket.terminate(), 1000).unref();
    }
    callback(error);
  }
}
