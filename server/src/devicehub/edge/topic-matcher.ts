import { compileTopicFilter } from '../../bus/bus.js';

type Matcher = (topic: string) => boolean;

// Browsers hold a handful of distinct filters (P/devices/#, P/devices/+, P/events/#…): each is
// compiled once so that matching a message against it allocates nothing.
const compiled = new Map<string, Matcher>();
const MAX_COMPILED = 10_000;

/** Whether an MQTT topic filter matches a topic, like topicMatches but without allocating. */
export function matchesFilter(filter: string, topic: string): boolean {
  let matcher = compiled.get(filter);
  if (!matcher) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    matcher = compileTopicFilter(filter);
    compiled.set(filter, matcher);
  }
  return matcher(topic);
}
