import { NOTIFICATION_STREAM_EVENT, type NotificationSummary } from '@hearth/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Role } from '../users/index.js';

export interface LiveLimits {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A stream ends after this long; the browser opens a new one with its current token. */
  maxAgeMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { heartbeatMs: 25_000, maxAgeMs: 10 * 60_000 };

interface Stream {
  who: { id: string; role: Role };
  reply: FastifyReply;
  timers: NodeJS.Timeout[];
}

/**
 * docs/alerts.md#live: each signed-in page's stream of its own person's summary (the bell's count,
 * the banner's incidents) as Server-Sent Events, sent at once and again whenever their notifications
 * change, on this instance or (told over the bus) another.
 */
export class LiveNotifications {
  private readonly streams = new Map<string, Set<Stream>>();
  /** People whose summary is being read, and those asked for again meanwhile. */
  private readonly reading = new Set<string>();
  private readonly again = new Set<string>();

  constructor(
    private readonly summary: (who: { id: string; role: Role }) => Promise<NotificationSummary>,
    private readonly log: Logger,
    private readonly limits: LiveLimits = DEFAULT_LIVE_LIMITS,
  ) {}

  /** Takes the request over as an event stream of `who`'s summaries. */
  open(request: FastifyRequest, reply: FastifyReply, who: { id: string; role: Role }) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 2000\n\n');
    const stream: Stream = { who, reply, timers: [] };
    const end = () => this.drop(stream);
    stream.timers.push(
      setInterval(() => raw.write(': keep-alive\n\n'), this.limits.heartbeatMs),
      setTimeout(() => raw.end(), this.limits.maxAgeMs),
    );
    for (const timer of stream.timers) timer.unref();
    request.raw.once('close', end);
    raw.once('close', end);
    const mine = this.streams.get(who.id) ?? new Set<Stream>();
    this.streams.set(who.id, mine);
    mine.add(stream);
    void this.send([stream]);
  }

  /** These people's notifications changed: their open streams get a new summary. */
  changed(userIds: Iterable<string>) {
    for (const id of new Set(userIds)) {
      const streams = this.streams.get(id);
      if (!streams || streams.size === 0) continue;
      if (this.reading.has(id)) {
        this.again.add(id);
        continue;
      }
      this.reading.add(id);
      void this.send([...streams]).finally(() => {
        this.reading.delete(id);
        if (this.again.delete(id)) this.changed([id]);
      });
    }
  }

  /** How many streams are open (tests, health). */
  count(): number {
    let count = 0;
    for (const streams of this.streams.values()) count += streams.size;
    return count;
  }

  /** Ends every stream (the server is closing). */
  close() {
    for (const streams of this.streams.values()) for (const stream of streams) stream.reply.raw.end();
    this.streams.clear();
  }

  private async send(streams: Stream[]) {
    const first = streams[0];
    if (!first) return;
    try {
      const summary = await this.summary(first.who);
      const frame = `event: ${NOTIFICATION_STREAM_EVENT}\ndata: ${JSON.stringify(summary)}\n\n`;
      for (const stream of streams) if (!stream.reply.raw.destroyed) stream.reply.raw.write(frame);
    } catch (error) {
      this.log.warn({ err: error, user: first.who.id }, 'reading a notification summary failed');
    }
  }

  private drop(stream: Stream) {
    for (const timer of stream.timers) clearTimeout(timer);
    const mine = this.streams.get(stream.who.id);
    mine?.delete(stream);
    if (mine?.size === 0) this.streams.delete(stream.who.id);
  }
}
