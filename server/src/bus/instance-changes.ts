import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Bus } from './bus.js';

/**
 * Instances sharing a database tell each other their changes over the bus (docs/rooms.md#several-instances,
 * docs/access.md#several-instances): `share` publishes a change with this instance's origin; every
 * other instance gets it, checked against `schema`, in `apply`. One topic per kind of change.
 */
export interface InstanceChanges<T> {
  share(change: T): void;
  /** Subscribes (not awaited: a bus that is still down must not hold up the start). */
  start(): void;
  close(): void;
}

export function instanceChanges<S extends z.ZodType>(options: {
  bus: Bus;
  topic: string;
  log: Logger;
  /** What a change looks like on the wire; anything else is logged and ignored. */
  schema: S;
  /** What the change means for this instance. */
  apply: (change: z.output<S>) => void;
  /** Names the change in log lines ("room change"). */
  what: string;
}): InstanceChanges<z.input<S>> {
  const { bus, topic, log, what } = options;
  // This instance, to recognise its own changes when the bus hands them back.
  const origin = crypto.randomUUID();
  let unsubscribe: (() => void) | undefined;
  let closed = false;
  return {
    share(change) {
      bus
        .publish(topic, JSON.stringify({ origin, change }), { qos: 1 })
        .catch((error) => log.warn({ err: error }, `telling the other instances of a ${what} failed`));
    },
    start() {
      bus
        .subscribe(topic, (_topic, payload) => {
          let parsed: { origin: unknown; change: unknown };
          let change: z.output<S>;
          try {
            parsed = JSON.parse(payload.toString());
            if (typeof parsed?.origin !== 'string') throw new Error('no origin');
            change = options.schema.parse(parsed.change);
          } catch {
            return void log.warn({ topic }, `${what} from the bus is not one; ignored`);
          }
          if (parsed.origin !== origin) options.apply(change);
        })
        .then((remove) => {
          if (closed) remove();
          else unsubscribe = remove;
        })
        .catch((error) => log.error({ err: error }, `listening for the ${what}s of other instances failed`));
    },
    close() {
      closed = true;
      unsubscribe?.();
    },
  };
}
