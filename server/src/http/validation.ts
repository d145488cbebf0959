import { z } from 'zod';
import { controlCharacterField } from './control-characters.js';
import { CONTROL_CHARACTERS } from './errors.js';

/**
 * Building blocks for route schemas. A route words its failures with the domain's own messages
 * (the product's texts, docs/strings.md) through each schema's `error`; anything it does not word gets a text naming the
 * field, from the fallback below, instead of Zod's generic "Invalid input".
 */

type Issue = z.core.$ZodRawIssue;

function fieldMessage(issue: Issue): string {
  const field = issue.path && issue.path.length > 0 ? issue.path.join('.') : 'body';
  const input: unknown = issue.input;
  switch (issue.code) {
    case 'invalid_type':
      if (field === 'body') return 'The request body must be a JSON object';
      if (input === undefined) return `${field} is required`;
      if (issue.expected === 'string') return `${field} must be text`;
      if (issue.expected === 'boolean') return `${field} must be true or false`;
      if (issue.expected === 'number') return `${field} must be a number`;
      if (issue.expected === 'object') return `${field} must be an object`;
      return `${field} is invalid`;
    case 'too_small':
      return issue.minimum === 1
        ? `${field} must not be empty`
        : `${field} must be at least ${issue.minimum} characters`;
    case 'too_big':
      return `${field} must be at most ${issue.maximum} characters`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.join(', ')}`;
    default:
      return `${field} is invalid`;
  }
}

// Only where a schema gives no message of its own (Zod: schema error > parse error > this).
z.config({ customError: fieldMessage });

/** Routes that take no query parameters (unknown ones are ignored, as browsers add cache-busters). */
export const noQuery = z.object({});

/** Calls whose body carries nothing (none at all, which Fastify gives as null, or `{}`). */
export const noBody = z.object({}).nullish();

/** `/…/:id` */
export const idParams = z.object({ id: z.string() });

/** One query parameter given as text; `?x=a&x=b` arrives as a list and is refused. */
export const queryText = (name: string) =>
  z.string({
    error: (issue) => (Array.isArray(issue.input) ? `${name} must be given once` : `${name} must be text`),
  });

/**
 * `schema`, refusing control characters as every HTTP route does before its schema
 * (docs/api.md#text), for input that comes another way: the device stream's commands.
 */
export const withoutControlCharacters = <T extends z.ZodType>(schema: T) =>
  schema.superRefine((value, ctx) => {
    const field = controlCharacterField(value, 'payload');
    if (field !== undefined) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS(field) });
  });

/** A time as a query gives it: epoch ms, or ISO-8601 with a date; NaN for anything else. */
export function queryTime(text: string): number {
  const trimmed = text.trim();
  if (/^-?\d{1,16}$/.test(trimmed)) return Number(trimmed);
  return /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
}
