import type { ActivityActor, ActivityKind, ActivityResult } from '@hearth/contracts';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';

/** What a domain hands the activity log (docs/activity.md#recording). */
export interface ActivityRecord {
  actor: ActivityActor;
  kind: ActivityKind;
  result: ActivityResult;
  ip?: string | undefined;
  /** The caller's user agent. */
  client?: string | undefined;
  device_id?: string | undefined;
  room_id?: string | undefined;
  /** What was done; never a password, token or code. */
  detail?: Record<string, unknown>;
  /** Epoch ms; now when left out. */
  at?: number;
}

/**
 * The activity log as other domains see it: `record` notes the entry and returns at once (no
 * I/O: entries are written in batches, away from the caller), so it may sit on the device
 * stream's path.
 */
export interface ActivityLog {
  record(entry: ActivityRecord): void;
}

/** A log that keeps nothing (unit tests, and modules built without one). */
export const noActivity: ActivityLog = { record() {} };

/** Where a call came from, as an entry keeps it. */
export interface ActivityOrigin {
  ip?: string | undefined;
  client?: string | undefined;
}

/** The fields of a signed-in person an actor is made from (a `UserRecord` has them). */
export interface ActorPerson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** Callers that act for someone else: an API token's caller is its owner's record, named as the token. */
const acting = new WeakMap<ActorPerson, ActivityActor>();

/** From now on, entries naming `person` (this very object) name `actor` instead (docs/api.md#api-tokens). */
export function actAs<T extends ActorPerson>(person: T, actor: ActivityActor): T {
  acting.set(person, actor);
  return person;
}

/** A signed-in person as an actor: their name (or e-mail address) as it is now; an API token as itself. */
export function userActor(person: ActorPerson): ActivityActor {
  const as = acting.get(person);
  if (as) return as;
  const name = `${person.firstName} ${person.lastName}`.trim();
  return { type: 'user', id: person.id, label: name || person.email };
}

/** Hearth itself (device events). */
export const SYSTEM_ACTOR: ActivityActor = { type: 'system', label: 'Hearth' };

/** A request's client address (TRUST_PROXY applied) and user agent. */
export function originOf(request: FastifyRequest): ActivityOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, ...(agent ? { client: agent.slice(0, 512) } : {}) };
}

/**
 * `tracked` for a route's handlers: each entry names the request's signed-in caller (as `caller`
 * finds them), their address and client.
 */
export function trackRequests(log: ActivityLog, caller: (request: FastifyRequest) => ActorPerson) {
  return <T>(
    request: FastifyRequest,
    entry: Omit<ActivityRecord, 'result' | 'actor' | 'ip' | 'client'>,
    action: () => Promise<T>,
    fromResult?: (value: T) => Partial<ActivityRecord>,
  ): Promise<T> =>
    tracked(log, { actor: userActor(caller(request)), ...originOf(request), ...entry }, action, fromResult);
}

/** How a failure reads in the log: the caller was refused (4xx), or it failed (anything else). */
export const resultOf = (error: unknown): ActivityResult =>
  error instanceof HttpError && error.statusCode < 500 ? 'refused' : 'failed';

/**
 * Runs `action` and records one entry with its outcome: `ok`, or `refused`/`failed` with the
 * error's message in the detail. The action's result or error passes through unchanged.
 */
export async function tracked<T>(
  log: ActivityLog,
  entry: Omit<ActivityRecord, 'result'>,
  action: () => Promise<T>,
  /** Fields known only from the result (a new room's id). */
  fromResult?: (value: T) => Partial<ActivityRecord>,
): Promise<T> {
  try {
    const value = await action();
    log.record({ ...entry, ...fromResult?.(value), result: 'ok' });
    return value;
  } catch (error) {
    // A refusal's text is the one the caller saw; anything else is not spelled out in the log.
    const reason = error instanceof HttpError ? error.message : 'Internal error';
    log.record({ ...entry, result: resultOf(error), detail: { ...entry.detail, reason } });
    throw error;
  }
}
