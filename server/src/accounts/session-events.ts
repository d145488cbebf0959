import { EventEmitter } from 'node:events';

/** What ended: these sessions, or every session of a user issued until now. */
export type SessionsEnded = { sessionIds: string[] } | { userId: string };

/**
 * Tells this instance's listeners (the access-token check's cache, the device stream) the moment
 * sessions end here, so they act at once instead of at their next re-check.
 */
export class SessionEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  ended(what: SessionsEnded): void {
    this.emitter.emit('ended', what);
  }

  onEnded(listener: (what: SessionsEnded) => void): () => void {
    this.emitter.on('ended', listener);
    return () => this.emitter.off('ended', listener);
  }
}
