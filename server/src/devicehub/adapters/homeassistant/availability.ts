import { isObject, type JsonObject } from '../../../shared/json.js';
import { str } from './entities.js';
import type { Payload } from './payload.js';
import type { TemplateEngine } from './templates.js';

/** One topic an entity's availability is read from. */
export interface AvailabilityEntry {
  topic: string;
  available: string;
  notAvailable: string;
  template: string | undefined;
}

/** How an entity knows whether it is available; undefined: it always is. */
export interface Availability {
  entries: AvailabilityEntry[];
  /** `latest` (the last message on any topic decides), `all` or `any`. */
  mode: 'latest' | 'all' | 'any';
}

/** `availability_topic` or the `availability` list (`[]`: always available), as Home Assistant reads them. */
export function availabilityOf(c: JsonObject): Availability | undefined {
  const mode =
    c.availability_mode === 'all' || c.availability_mode === 'any' ? c.availability_mode : 'latest';
  if (typeof c.availability_topic === 'string') {
    return {
      mode,
      entries: [
        {
          topic: c.availability_topic,
          available: str(c.payload_available ?? 'online'),
          notAvailable: str(c.payload_not_available ?? 'offline'),
          template: typeof c.availability_template === 'string' ? c.availability_template : undefined,
        },
      ],
    };
  }
  if (!Array.isArray(c.availability) || c.availability.length === 0) return undefined;
  return {
    mode,
    entries: c.availability.filter(isObject).map((entry) => ({
      topic: entry.topic as string,
      available: str(entry.payload_available ?? 'online'),
      notAvailable: str(entry.payload_not_available ?? 'offline'),
      template: typeof entry.value_template === 'string' ? entry.value_template : undefined,
    })),
  };
}

/** What a message on an availability topic says: available, not, or nothing it understands. */
export function availabilityMessage(
  entry: AvailabilityEntry,
  message: Payload,
  encoding: unknown,
  templates: TemplateEngine,
): { available?: boolean; error?: string } {
  let text = message.value(encoding);
  if (entry.template) {
    const result = templates.render(entry.template, message.variables(encoding));
    if (!result.ok) return { error: `availability template: ${result.error}` };
    text = result.text;
  }
  if (text === entry.available) return { available: true };
  if (text === entry.notAvailable) return { available: false };
  return {};
}

/** An entity's availability from what each topic last said (nothing yet: not available). */
export function combined(
  availability: Availability,
  heard: ReadonlyMap<string, boolean>,
  latest: boolean | undefined,
): boolean {
  if (availability.mode === 'latest') return latest ?? false;
  const states = availability.entries.map((entry) => heard.get(entry.topic));
  return availability.mode === 'all' ? states.every((s) => s === true) : states.some((s) => s === true);
}
