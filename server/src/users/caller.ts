import type { FastifyRequest } from 'fastify';
import type { Role, UserRecord } from './users.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, set by a guard (`Guards.user`, `Guards.role`). */
    caller?: UserRecord;
  }
}

/** An `onRequest` hook: sets `request.caller`, or throws the 401/403 HttpError. */
export type Guard = (request: FastifyRequest) => Promise<void>;

/**
 * Who may call a route. Implemented by the accounts domain (which reads the token); every other
 * domain takes it as a dependency. Guards run before the body is parsed or validated.
 */
export interface Guards {
  /** 401 {"error":"Authentication required"} unless signed in. */
  user: Guard;
  /** 401 when signed out, 403 when the caller's role is not among `roles`. */
  role(...roles: Role[]): Guard;
}

/** The caller a guard has set; a route without a guard asking for it is a programming error. */
export function callerOf(request: FastifyRequest): UserRecord {
  if (!request.caller) throw new Error(`${request.routeOptions.url} has no guard setting the caller`);
  return request.caller;
}
