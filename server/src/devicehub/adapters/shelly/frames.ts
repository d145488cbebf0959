import { isObject, type JsonObject } from '../../../shared/json.js';

/**
 * Shelly Gen2+ frames over MQTT (docs/devicehub.md#shelly-mapping): the notifications a device
 * publishes on `<prefix>/events/rpc`, the replies to Hearth's requests on `<src>/rpc`, and the
 * device's status kept as NotifyFullStatus gives it and NotifyStatus changes it. Pure.
 */

/** Most components one device's status holds (a real one has 10–30). */
export const MAX_COMPONENTS = 128;

export type Frame =
  | { kind: 'full'; src: string; status: JsonObject }
  | { kind: 'delta'; src: string; status: JsonObject }
  | { kind: 'events'; src: string; events: ShellyEvent[] }
  | { kind: 'other'; src: string; method: string };

export interface ShellyEvent {
  component: string;
  id: number | undefined;
  event: string;
}

export type Reply =
  | { id: number | string; result: unknown }
  | { id: number | string; error: { code: number | undefined; message: string } };

const parse = (payload: string): unknown => {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
};

/** The status in a notification's params: everything but its timestamp. */
const statusOf = (params: JsonObject): JsonObject => {
  const { ts: _ts, ...status } = params;
  return status;
};

/** A notification on `<prefix>/events/rpc`; undefined when it is not one (not JSON, no `src` or `method`). */
export function parseNotification(payload: string): Frame | undefined {
  const frame = parse(payload);
  if (!isObject(frame) || typeof frame.src !== 'string' || typeof frame.method !== 'string') return undefined;
  const params = isObject(frame.params) ? frame.params : {};
  switch (frame.method) {
    case 'NotifyFullStatus':
      return { kind: 'full', src: frame.src, status: statusOf(params) };
    case 'NotifyStatus':
      return { kind: 'delta', src: frame.src, status: statusOf(params) };
    case 'NotifyEvent': {
      const events = (Array.isArray(params.events) ? params.events : []).flatMap((event): ShellyEvent[] =>
        isObject(event) && typeof event.component === 'string' && typeof event.event === 'string'
          ? [
              {
                component: event.component,
                id: typeof event.id === 'number' ? event.id : undefined,
                event: event.event,
              },
            ]
          : [],
      );
      return { kind: 'events', src: frame.src, events };
    }
    default:
      return { kind: 'other', src: frame.src, method: frame.method };
  }
}

/** A reply on `<src>/rpc`: its id and result or error; undefined when it is not one. */
export function parseReply(payload: string): Reply | undefined {
  const frame = parse(payload);
  if (!isObject(frame) || (typeof frame.id !== 'number' && typeof frame.id !== 'string')) return undefined;
  if (isObject(frame.error))
    return {
      id: frame.id,
      error: {
        code: typeof frame.error.code === 'number' ? frame.error.code : undefined,
        message: typeof frame.error.message === 'string' ? frame.error.message : 'error',
      },
    };
  if ('result' in frame) return { id: frame.id, result: frame.result };
  return undefined;
}

/** A request frame for `<prefix>/rpc`: Hearth's `src` tells the device where to answer. */
export const requestFrame = (id: number, src: string, method: string, params?: JsonObject) =>
  JSON.stringify({ id, src, method, ...(params ? { params } : {}) });

/**
 * NotifyStatus's change merged into the status Hearth keeps: objects field by field (a switch's
 * `output` alone leaves its `apower` as it was), anything else replaced. A component the status
 * does not have yet is added while it holds fewer than MAX_COMPONENTS.
 */
export function mergeStatus(status: JsonObject, delta: JsonObject): JsonObject {
  const next: JsonObject = { ...status };
  for (const [key, value] of Object.entries(delta)) {
    if (!(key in next) && Object.keys(next).length >= MAX_COMPONENTS) continue;
    next[key] = mergeValue(next[key], value, 0);
  }
  return next;
}

function mergeValue(before: unknown, change: unknown, depth: number): unknown {
  if (!isObject(before) || !isObject(change) || depth > 4) return change;
  const next: JsonObject = { ...before };
  for (const [key, value] of Object.entries(change)) next[key] = mergeValue(next[key], value, depth + 1);
  return next;
}

/** A full status, bounded to MAX_COMPONENTS components. */
export function boundedStatus(status: JsonObject): JsonObject {
  const entries = Object.entries(status);
  return entries.length <= MAX_COMPONENTS ? status : Object.fromEntries(entries.slice(0, MAX_COMPONENTS));
}
