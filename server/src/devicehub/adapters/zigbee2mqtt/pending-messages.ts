/** A state message kept for a name the device list has not named yet. */
export interface PendingState {
  payload: Buffer;
  retained: boolean;
  /** When it arrived (its last_seen when the payload has none and it was not retained). */
  receivedAt: string;
}

export interface Pending {
  availability?: Buffer;
  state?: PendingState;
}

export interface PendingLimits {
  /** Names kept at most; the name heard of longest ago goes first. */
  names: number;
  /** Payload bytes kept at most, over all names. */
  bytes: number;
}

/** 10 000 names: five times a large Zigbee network; the byte budget bounds it in any case. */
export const PENDING_LIMITS: PendingLimits = { names: 10_000, bytes: 32 * 1024 * 1024 };

const sizeOf = (entry: Pending) => (entry.availability?.length ?? 0) + (entry.state?.payload.length ?? 0);

/**
 * The newest availability and state per friendly name that is not (yet) in the device list. A
 * broker replays retained topics in its own order, so they may arrive before `bridge/devices`,
 * or under a new name before the rename's answer. Bounded: oldest names are evicted first.
 */
export class PendingMessages {
  private readonly byName = new Map<string, Pending>();
  private bytes = 0;

  constructor(private readonly limits: PendingLimits = PENDING_LIMITS) {}

  get size() {
    return this.byName.size;
  }

  get totalBytes() {
    return this.bytes;
  }

  keepAvailability(name: string, payload: Buffer) {
    this.update(name, (entry) => {
      entry.availability = payload;
    });
  }

  keepState(name: string, state: PendingState) {
    this.update(name, (entry) => {
      entry.state = state;
    });
  }

  /** An empty retained message clears the topic: nothing is pending for it any more. */
  forget(name: string, kind: keyof Pending) {
    this.update(name, (entry) => {
      delete entry[kind];
    });
  }

  /** What is pending for the name, removed from the buffer. */
  take(name: string): Pending | undefined {
    const entry = this.byName.get(name);
    if (!entry) return undefined;
    this.byName.delete(name);
    this.bytes -= sizeOf(entry);
    return entry;
  }

  private update(name: string, change: (entry: Pending) => void) {
    const entry = this.take(name) ?? {};
    change(entry);
    const size = sizeOf(entry);
    if (entry.availability === undefined && entry.state === undefined) return;
    // Re-inserted: a Map iterates in insertion order, so the first key is the oldest.
    this.byName.set(name, entry);
    this.bytes += size;
    while (this.byName.size > this.limits.names || this.bytes > this.limits.bytes) {
      const oldest = this.byName.keys().next().value;
      if (oldest === undefined) break;
      this.take(oldest);
    }
  }
}
