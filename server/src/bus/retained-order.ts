import type { Aedes } from 'aedes';

/**
 * Works around an ordering bug in Aedes: a retained PUBLISH is stored through an async
 * persistence call before it is emitted, so non-retained packets that arrive right behind it
 * (in the same socket read) are emitted first. Each subscriber's de-duplication then sees the
 * retained packet's older broker counter and silently drops it — e.g. Zigbee2MQTT's retained
 * `bridge/devices` list followed by state messages never reaches live subscribers.
 *
 * The in-memory persistence stores synchronously inside its async method, so completing the
 * store step synchronously keeps packets in arrival order.
 *
 * Upstream: https://github.com/moscajs/aedes/issues/994 (packets overtaking one another between
 * numbering and delivery are dropped as duplicates). Aedes is pinned to the version these
 * internals were read from; retained-order.test.ts fails when an upgrade changes them.
 */
export function keepRetainedInOrder(broker: Aedes): void {
  // `persistence` is public at run time but missing from Aedes' type declarations.
  const { persistence } = broker as unknown as {
    persistence: { storeRetained(packet: unknown): Promise<void> };
  };
  const store = persistence.storeRetained.bind(persistence);
  persistence.storeRetained = (packet: unknown) => {
    let failure: unknown;
    let failed = false;
    store(packet).catch((error: unknown) => {
      failed = true;
      failure = error;
    });
    // A thenable that settles at once: Aedes chains `.then(done, done)` on it.
    return {
      // biome-ignore lint/suspicious/noThenProperty: deliberately a synchronous thenable
      then(onFulfilled?: () => unknown, onRejected?: (error: unknown) => unknown) {
        if (failed) onRejected?.(failure);
        else onFulfilled?.();
        return Promise.resolve();
      },
    } as unknown as Promise<void>;
  };
}
