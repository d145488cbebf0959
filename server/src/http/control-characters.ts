import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { CONTROL_CHARACTERS, HttpError } from './errors.js';

/**
 * docs/api.md#text: no request carries a control character to a route (but tab and line breaks
 * in a body's text). PostgreSQL refuses U+0000 in text outright (one such sign-in once stopped the
 * activity log for good), and the others have no business in an id, a filter or a key.
 */

/** `strict`: every C0 control and DEL is refused; `text`: all but tab, line feed and carriage return. */
type Rule = 'strict' | 'text';

/** Whether `text` holds a control `rule` refuses. */
function refusedIn(text: string, rule: Rule): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x7f) return true;
    if (code < 0x20 && (rule === 'strict' || (code !== 0x09 && code !== 0x0a && code !== 0x0d))) return true;
  }
  return false;
}

/** Whether `text` holds any control character (for ids and names that come another way than HTTP). */
export const hasControlCharacter = (text: string): boolean => refusedIn(text, 'strict');

/** A field named in the answer: a schema's own name, never an echo of arbitrary input. */
const NAMEABLE = /^[A-Za-z0-9_.-]{1,64}$/;

const isWalkable = (value: unknown): value is Record<string, unknown> | unknown[] =>
  typeof value === 'object' &&
  value !== null &&
  // Parsed JSON, queries and parameters; not an upload's bytes or stream.
  !ArrayBuffer.isView(value) &&
  !(value instanceof ArrayBuffer) &&
  typeof (value as { pipe?: unknown }).pipe !== 'function';

/**
 * Whether `value` holds a control character: any in a key, or one `rule` refuses in a text.
 * Walked without recursion, so a body nested 10 000 deep costs no stack.
 */
function holdsControl(value: unknown, rule: Rule): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') {
      if (refusedIn(next, rule)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) stack.push(item);
    } else if (isWalkable(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (refusedIn(key, 'strict')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/**
 * The field of `value` (an object of fields, or text) that holds a control character: its
 * top-level name, or `whole` when the name itself has one or is not fit to be repeated.
 * Undefined when there is none.
 */
export function controlCharacterField(value: unknown, whole: string, rule: Rule = 'text') {
  if (!isWalkable(value) || Array.isArray(value)) return holdsControl(value, rule) ? whole : undefined;
  for (const [key, item] of Object.entries(value)) {
    if (refusedIn(key, 'strict')) return whole;
    if (holdsControl(item, rule)) return NAMEABLE.test(key) ? key : whole;
  }
  return undefined;
}

/**
 * A `preValidation` hook on every route: 400 `{field} must not contain control characters` for
 * a path parameter, query or body that holds one (after the route's guards, before its schema).
 */
export function refuseControlCharacters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  const field =
    controlCharacterField(request.params, 'path', 'strict') ??
    controlCharacterField(request.query, 'query', 'strict') ??
    controlCharacterField(request.body, 'body');
  if (field === undefined) return done();
  done(new HttpError(400, CONTROL_CHARACTERS(field)));
}
