import { NOTIFICATION_STREAM_EVENT, type NotificationSummary } from '@hearth/contracts';
import { getAccessToken } from '../../shared/api/client.js';
import { refreshTokens } from '../../shared/api/refresh.js';
import { SnapshotStore } from '../../shared/store/snapshot-store.js';
import { SseParser } from './sse.js';

export interface LiveNotifications extends NotificationSummary {
  /** Whether the stream is open (false: offline or reconnecting). */
  connected: boolean;
}

const EMPTY: LiveNotifications = { unread: 0, critical: [], connected: false };
/** After a stream ends or fails, the next try waits this long (then longer, up to the last). */
const RETRY_MS = [500, 1000, 2000, 5000, 10_000];

/**
 * docs/alerts.md#live: the signed-in person's bell count and banner incidents, from
 * GET /api/notifications/stream (Server-Sent Events, read with fetch so the access token goes in
 * the Authorization header), reconnecting whenever it ends. One per page, shared by the bell, the
 * banner and the inbox.
 */
export class NotificationsLiveStore extends SnapshotStore<LiveNotifications> {
  private controller: AbortController | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private running = false;
  private readonly changed = new Set<() => void>();

  constructor(private readonly fetchStream: typeof fetch = (input, init) => fetch(input, init)) {
    super(EMPTY);
  }

  /** Runs `listener` whenever a summary arrives (the inbox reads its page again). */
  onChange(listener: () => void): () => void {
    this.changed.add(listener);
    return () => this.changed.delete(listener);
  }

  start() {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  stop() {
    this.running = false;
    clearTimeout(this.retry);
    this.controller?.abort();
    this.set(EMPTY);
  }

  private async connect(refreshed = false): Promise<void> {
    if (!this.running) return;
    const controller = new AbortController();
    this.controller = controller;
    try {
      const token = getAccessToken();
      const response = await this.fetchStream('/api/notifications/stream', {
        headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        signal: controller.signal,
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (response.status === 401 && !refreshed) {
        await response.body?.cancel();
        // Someone refreshed while this was on the wire: the newer token; else one shared refresh.
        if (getAccessToken() === token) await refreshTokens();
        return this.connect(true);
      }
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      await this.read(response.body);
    } catch {
      // Offline, refused or ended: shown as not connected, tried again.
    }
    if (!this.running || controller.signal.aborted) return;
    this.set({ ...this.snapshot, connected: false });
    const wait = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)] ?? 10_000;
    this.retry = setTimeout(() => void this.connect(), wait);
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const event of parser.feed(decoder.decode(value, { stream: true }))) {
        if (event.event !== NOTIFICATION_STREAM_EVENT) continue;
        const summary = JSON.parse(event.data) as NotificationSummary;
        this.failures = 0;
        this.set({ unread: summary.unread, critical: summary.critical, connected: true });
        for (const listener of this.changed) listener();
      }
    }
  }
}

/** The page's one stream. */
export const notificationsLive = new NotificationsLiveStore();
