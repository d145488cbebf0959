import { formatLastSeen } from '../model/format.js';
import type { EventReading } from '../model/metrics.js';
import { useTileClock } from './LastSeen.js';

/**
 * docs/screens.md#devices-of-other-sources: an event entity's last event and when the page heard
 * it ("Doorbell: Press · 2m ago"); without a time of its own, the device's last message's.
 */
export function TileEvents({
  events,
  timeOf,
  fallback,
}: {
  events: EventReading[];
  timeOf(property: string): number | null;
  /** When the device was last heard from. */
  fallback: number | null;
}) {
  const clock = useTileClock();
  if (events.length === 0) return null;
  return (
    <dl className="tile-events">
      {events.map((event) => {
        const at = timeOf(event.property) ?? fallback;
        return (
          <div key={event.property} className="metric" data-event={event.property}>
            <dt>{event.label}</dt>
            <dd>
              {event.value}
              {at !== null && (
                <span className="event-time"> · {formatLastSeen(at, Math.max(clock, at))}</span>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
