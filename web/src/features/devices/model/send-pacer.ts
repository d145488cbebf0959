/** docs/screens.md#device-tile: a slider sends at most this often while it is dragged, and this long after the last key. */
export const SLIDER_PACE_MS = 250;

/**
 * When a slider's value goes to the device: while it is dragged at most every `pace` ms (the
 * first move at once, the newest value at the end of each interval), when it is released, and
 * after arrow keys `pace` ms after the last press, so five presses make one command. A value the
 * device was just sent is not sent again.
 */
export class SendPacer<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private pending: { value: T } | null = null;
  private sent: { value: T } | null = null;

  constructor(
    private readonly send: (value: T) => void,
    private readonly pace = SLIDER_PACE_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The value moved while the pointer holds the slider. */
  drag(value: T) {
    this.pending = { value };
    const wait = this.lastSentAt + this.pace - this.now();
    if (wait <= 0) this.flush();
    else if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), wait);
  }

  /** The value moved by a key: sent once the keys have rested for `pace` ms. */
  key(value: T) {
    this.pending = { value };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.pace);
  }

  /** The slider was let go of (pointer up) or left (blur): its value goes now. */
  release(value?: T) {
    if (value !== undefined) this.pending = { value };
    this.flush();
  }

  /** Sends what waits, if anything. */
  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = null;
    if (!pending || (this.sent && Object.is(this.sent.value, pending.value))) return;
    this.sent = pending;
    this.lastSentAt = this.now();
    this.send(pending.value);
  }

  /** Whether a value still waits to go. */
  get waiting(): boolean {
    return this.pending !== null;
  }

  /** Forgets what was sent (the device's value changed since), so the same value may go again. */
  reset() {
    this.sent = null;
  }

  /** Drops what waits (the control went away). */
  cancel() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
  }
}
