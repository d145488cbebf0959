import { topicMatches } from '../../bus/bus.js';

type Matcher = (topic: string) => boolean;

// Browsers hold a handful of distinct filters (P/devices/#, P/devices/+, P/events/#…): each is
// compiled once so that matching a message against it allocates nothing.
const compiled = new Map<string, Matcher>();
const MAX_COMPILED = 10_000;

function compile(filter: string): Matcher {
  const wildcard = filter.search(/[+#]/);
  if (wildcard === -1) return (topic) => topic === filter;
  if (filter.endsWith('/#') && wildcard === filter.length - 1) {
    const prefix = filter.slice(0, -1);
    const parent = filter.slice(0, -2);
    return (topic) => topic.startsWith(prefix) || topic === parent;
  }
  if (filter.endsWith('/+') && wildcard === filter.length - 1) {
    const prefix = filter.slice(0, -1);
    return (topic) => topic.startsWith(prefix) && topic.indexOf('/', prefix.length) === -1;
  }
  return (topic) => topicMatches(filter, topic);
}

/** Whether an MQTT topic filter matches a topic, like topicMatches but without allocating. */
export function matchesFilter(filter: string, topic: string): boolean {
  let matcher = compiled.get(filter);
  if (!matcher) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    matcher = compile(filter);
    compiled.set(filter, matcher);
  }
  return matcher(topic);
}
