import { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import type { UserRecord } from '../../users/users.repository.js';
import { PacketLengthGuard } from './packet-length-guard.js';

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
}

/**
 * An MQTT byte stream over one WebSocket for Aedes. mqtt-packet writes each packet as several
 * small chunks inside cork()/uncork(); _writev receives every chunk of one tick and sends them as
 * ONE binary frame, instead of a frame per chunk (what made a naive bridge four times slower
 * than Mosquitto). Writes never wait: bytes the browser is not reading pile up in the socket and
 * a browser over maxQueuedBytes is dropped, so one stalled browser never holds up the others.
 */
export class WebSocketTransport extends Duplex {
  private readonly guard: PacketLengthGuard;

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
    this.options.onDrop(reason);
    this.socket.terminate();
    this.destroy();
  }

  override _read() {
    if (this.socket.isPaused) this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.send(chunk);
    callback();
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void) {
    this.send(
      chunks.length === 1
        ? (chunks[0] as { chunk: Buffer }).chunk
        : Buffer.concat(chunks.map((c) => c.chunk)),
    );
    callback();
  }

  private send(data: Buffer) {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (this.socket.bufferedAmount + data.length > this.options.maxQueuedBytes) {
      this.dropConnection('slow consumer');
      return;
    }
    this.socket.send(data, { binary: true, compress: false });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
      // A peer that never answers the close handshake must not keep the socket.
      setTimeout(() => this.socket.terminate(), 1000).unref();
    }
    callback(error);
  }
}
