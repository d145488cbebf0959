import { Duplex } from 'node:stream';
import type { DeviceAccess } from '@hearth/contracts';
import { WebSocket } from 'ws';
import type { UserRecord } from '../../users/index.js';
import type { Principal, Reach } from '../reach.js';
import { PacketLengthGuard } from './packet-length-guard.js';
import { matchesFilter } from './topic-matcher.js';

export type DropReason = 'packet too large' | 'text frame' | 'slow consumer';

export interface TransportOptions {
  maxPacketBytes: number;
  /** Bytes the socket may hold unsent; above it, frames wait here until it drains. */
  maxQueuedBytes: number;
  /** A browser whose socket does not drain below maxQueuedBytes for this long is dropped. */
  slowConsumerMs: number;
  /** Bytes that may wait here at all; a browser past it is dropped at once. */
  maxPendingBytes: number;
  onDrop: (reason: DropReason) => void;
}

/** Largest WebSocket frame a burst is split into (one larger packet still goes whole). */
export const MAX_FRAME_BYTES = 64 * 1024;

/** What the upgrade learnt about a connection, read again when its CONNECT arrives. */
export interface ConnectionSession {
  /** The client's address (TRUST_PROXY applied), as the upgrade request gave it. */
  address: string;
  /** The client's User-Agent (first 512 characters), if it sent one. */
  userAgent?: string | undefined;
  /** The resident/admin of the `auth_token` cookie, if the upgrade carried a valid one. */
  cookieUser: UserRecord | undefined;
  /** The cookie's access token, when it was valid. */
  cookieToken?: string | undefined;
  /** The signed-in user once CONNECT was accepted. */
  user?: UserRecord;
  /** The access token CONNECT was accepted with: its session ending closes the connection. */
  token?: string;
  /** Set by preConnect when the CONNECT carried a will message (refused at authenticate). */
  willRequested?: boolean;
  /** The Aedes client once its session is established: its subscriptions by topic filter. */
  client?: { subscriptions: Record<string, unknown> };
  /** Who is behind the connection once CONNECT was accepted (an account, or a guest pass). */
  principal?: Principal;
  /** What it may view and control (docs/access.md#reach). */
  reach?: Reach;
  /**
   * Connections whose reach is not `everything`: the devices it has been told of and its level on
   * each. Undefined on the fast path (everything is delivered, unchecked).
   */
  visible?: Map<string, DeviceAccess>;
  /** The absolute reply topic (`P/replies/<client id as the browser gave it>`), if its id can name one. */
  replyTopic?: string;
  /** Reads the reach again (its rules changed); undefined: it may no longer connect. */
  loadReach?: () => Promise<Reach | undefined>;
}

/**
 * An MQTT byte stream over one WebSocket for Aedes. mqtt-packet writes each packet as several
 * small chunks; a naive bridge sends a frame (and a system call) per chunk, which made it four
 * times slower than Mosquitto. Here everything written during one turn of the event loop (every
 * packet delivered while handling one read from the bus) leaves together, flushed by setImmediate,
 * as frames of at most MAX_FRAME_BYTES. Writes never wait: while the browser's socket holds more
 * than maxQueuedBytes, frames wait here until it drains. A browser is judged by how long its
 * socket stays that full, not by one sample after a burst: one that reads at full speed keeps up
 * with any burst; one that does not drain for slowConsumerMs (or lets maxPendingBytes pile up)
 * has stopped reading and is dropped, so one stalled browser never holds up the others.
 */
export class WebSocketTransport extends Duplex {
  private readonly guard: PacketLengthGuard;
  /** Chunks waiting to be sent, from `head` on (an index, not shift(): bursts have thousands). */
  private pending: Buffer[] = [];
  private head = 0;
  private pendingBytes = 0;
  private flushScheduled = false;
  private dropped = false;
  /** Runs while the socket is too full to take more (see waitForDrain). */
  private stallTimer: NodeJS.Timeout | undefined;

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
    if (this.dropped) return;
    this.dropped = true;
    this.stopWaiting();
    this.pending = [];
    this.head = 0;
    this.pendingBytes = 0;
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
    if (this.dropped || this.socket.readyState !== WebSocket.OPEN) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes > this.options.maxPendingBytes) return this.dropConnection('slow consumer');
    // While the socket is full, its drain flushes; until then there is nothing to do.
    if (!this.flushScheduled && !this.stallTimer) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  }

  /**
   * Sends what waits, frame by frame, while the socket takes it; else waits for it to drain. Each
   * frame is one buffer, header included, written straight to the TCP socket: one write call
   * rather than ws' header and payload as two writes under cork (a server's frames are not
   * masked, and without permessage-deflate ws' sender keeps no queue a frame could overtake).
   */
  private readonly flush = () => {
    this.flushScheduled = false;
    if (this.dropped || this.socket.readyState !== WebSocket.OPEN) return;
    const raw = (this.socket as unknown as { _socket?: Duplex })._socket;
    while (this.pendingBytes > 0 && this.socket.bufferedAmount <= this.options.maxQueuedBytes) {
      if (raw) raw.write(this.nextFrame(true));
      else this.socket.send(this.nextFrame(false), { binary: true, compress: false });
    }
    if (this.pendingBytes > 0) this.waitForDrain();
  };

  /**
   * Whole chunks from the queue, up to MAX_FRAME_BYTES (at least one); `framed`: as a whole
   * binary WebSocket frame (RFC 6455 5.2: FIN, opcode 2, unmasked, the payload's length).
   */
  private nextFrame(framed: boolean): Buffer {
    let end = this.head;
    let bytes = 0;
    while (end < this.pending.length) {
      const length = (this.pending[end] as Buffer).length;
      if (end > this.head && bytes + length > MAX_FRAME_BYTES) break;
      bytes += length;
      end++;
    }
    let frame: Buffer;
    if (framed) {
      const header = bytes < 126 ? 2 : bytes < 65_536 ? 4 : 10;
      frame = Buffer.allocUnsafe(header + bytes);
      frame[0] = 0x82;
      if (header === 2) frame[1] = bytes;
      else if (header === 4) {
        frame[1] = 126;
        frame.writeUInt16BE(bytes, 2);
      } else {
        frame[1] = 127;
        frame.writeUInt32BE(Math.floor(bytes / 2 ** 32), 2);
        frame.writeUInt32BE(bytes % 2 ** 32, 6);
      }
      let offset = header;
      for (let i = this.head; i < end; i++) offset += (this.pending[i] as Buffer).copy(frame, offset);
    } else {
      frame =
        end - this.head === 1
          ? (this.pending[this.head] as Buffer)
          : Buffer.concat(this.pending.slice(this.head, end), bytes);
    }
    this.head = end;
    this.pendingBytes -= bytes;
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
    } else if (this.head > 4096) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
    return frame;
  }

  /**
   * The socket holds more than maxQueuedBytes: the rest waits for its 'drain' (its write buffer
   * emptied). No drain within slowConsumerMs means the browser stopped reading.
   */
  private waitForDrain() {
    if (this.stallTimer) return;
    const raw = (this.socket as unknown as { _socket?: NodeJS.EventEmitter })._socket;
    const drained = () => {
      this.stopWaiting();
      this.flush();
    };
    raw?.once('drain', drained);
    this.stallTimer = setTimeout(() => this.dropConnection('slow consumer'), this.options.slowConsumerMs);
    this.stopWaiting = () => {
      raw?.off('drain', drained);
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
      this.stopWaiting = () => {};
    };
  }

  private stopWaiting: () => void = () => {};

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    // What Aedes wrote just before closing (a refusing CONNACK) still goes out, then the close.
    if (!this.dropped) this.flush();
    this.stopWaiting();
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
      // A peer that never answers the close handshake must not keep the socket.
      setTimeout(() => this.socket.terminate(), 1000).unref();
    }
    callback(error);
  }
}
