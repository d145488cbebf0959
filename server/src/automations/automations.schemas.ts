import {
  AUTOMATION_MAX_WAIT_SECONDS,
  AUTOMATION_MODES,
  type AutomationAction,
  type AutomationCondition,
  type AutomationTrigger,
  CATCH_UP_MODES,
  type IsoWeekday,
} from '@hearth/contracts';
import { z } from 'zod';
import { AUTOMATIONS_ERRORS as E } from './automations.errors.js';

// docs/automations.md#api: the rule's parts as the issue gives them; anything else is refused
// with 400 naming the field.

type Issue = z.core.$ZodRawIssue;
const fieldOf = (issue: Issue) => (issue.path ?? []).join('.');
const named = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** An object of exactly these fields: another one is named in the refusal. */
const strict = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? E.unknownField(named(fieldOf(issue), String(issue.keys[0])))
        : issue.code === 'invalid_type'
          ? `${fieldOf(issue) || 'body'} must be an object`
          : undefined,
  });

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const time = z
  .string({ error: (issue) => E.time(fieldOf(issue)) })
  .regex(TIME, { error: (issue) => E.time(fieldOf(issue)) });
const weekdaysError = (issue: Issue) => E.weekdays(fieldOf(issue).replace(/\.\d+$/, ''));
const weekdays = z
  .array(
    z
      .number({ error: weekdaysError })
      .int({ error: weekdaysError })
      .min(1, { error: weekdaysError })
      .max(7, { error: weekdaysError }),
    {
      error: weekdaysError,
    },
  )
  .min(1, { error: weekdaysError })
  .max(7, { error: weekdaysError })
  .transform((days) => [...new Set(days)].sort() as IsoWeekday[]);
const id = (what: string) =>
  z
    .string({ error: (issue) => `${fieldOf(issue) || what} must be an id` })
    .min(1, { error: (issue) => `${fieldOf(issue) || what} must be an id` })
    .max(200, { error: (issue) => `${fieldOf(issue) || what} must be an id` });
const property = z
  .string({ error: (issue) => `${fieldOf(issue)} must be a property name` })
  .min(1, { error: (issue) => `${fieldOf(issue)} must be a property name` })
  .max(200, { error: (issue) => `${fieldOf(issue)} must be a property name` });
/** A value to compare with: text, a number, true or false. */
const value = z.union([z.string().max(1024), z.number(), z.boolean()], {
  error: (issue) => `${fieldOf(issue)} must be text, a number, true or false`,
});
const number = z.number({ error: (issue) => `${fieldOf(issue)} must be a number` });
const seconds = z
  .number({ error: (issue) => E.seconds(fieldOf(issue)) })
  .int({ error: (issue) => E.seconds(fieldOf(issue)) })
  .min(1, { error: (issue) => E.seconds(fieldOf(issue)) })
  .max(AUTOMATION_MAX_WAIT_SECONDS, { error: (issue) => E.seconds(fieldOf(issue)) });
const boolean = z.boolean({ error: (issue) => `${fieldOf(issue)} must be true or false` });
const text = (max: number) =>
  z
    .string({ error: (issue) => `${fieldOf(issue)} must be text of 1 to ${max} characters` })
    .trim()
    .min(1, { error: (issue) => `${fieldOf(issue)} must be text of 1 to ${max} characters` })
    .max(max, { error: (issue) => `${fieldOf(issue)} must be text of 1 to ${max} characters` });

const union = <T extends readonly [z.core.SomeType, ...z.core.SomeType[]]>(
  types: readonly string[],
  options: T,
) =>
  z.discriminatedUnion('type', options as never, {
    error: (issue) =>
      issue.code === 'invalid_union' || issue.code === 'invalid_value'
        ? E.type(fieldOf(issue).endsWith('.type') ? fieldOf(issue) : named(fieldOf(issue), 'type'), types)
        : issue.code === 'invalid_type'
          ? `${fieldOf(issue)} must be an object`
          : undefined,
  }) as unknown as z.ZodDiscriminatedUnion<[...T]>;

const TRIGGER_TYPES = ['time', 'cron', 'sun', 'state', 'event', 'availability', 'start'] as const;
export const triggerSchema = union(TRIGGER_TYPES, [
  strict({ type: z.literal('time'), at: time, weekdays: weekdays.optional() }),
  strict({
    type: z.literal('cron'),
    expression: z
      .string({ error: (issue) => E.cronSyntax(fieldOf(issue)) })
      .max(200, { error: (issue) => E.cronSyntax(fieldOf(issue)) }),
  }),
  strict({
    type: z.literal('sun'),
    event: z.enum(['sunrise', 'sunset'], { error: (issue) => `${fieldOf(issue)} must be sunrise or sunset` }),
    offset_minutes: z
      .number({ error: (issue) => E.offset(fieldOf(issue)) })
      .int({ error: (issue) => E.offset(fieldOf(issue)) })
      .min(-720, { error: (issue) => E.offset(fieldOf(issue)) })
      .max(720, { error: (issue) => E.offset(fieldOf(issue)) })
      .optional(),
  }),
  strict({
    type: z.literal('state'),
    device_id: id('device_id'),
    property,
    to: value.optional(),
    from: value.optional(),
    above: number.optional(),
    below: number.optional(),
    for_seconds: seconds.optional(),
  }),
  strict({ type: z.literal('event'), device_id: id('device_id'), value: text(200) }),
  strict({ type: z.literal('availability'), device_id: id('device_id'), online: boolean }),
  strict({ type: z.literal('start') }),
] as const);

const CONDITION_TYPES = ['state', 'time', 'sun'] as const;
export const conditionSchema = union(CONDITION_TYPES, [
  strict({
    type: z.literal('state'),
    device_id: id('device_id'),
    property,
    equals: value.optional(),
    above: number.optional(),
    below: number.optional(),
  }),
  strict({
    type: z.literal('time'),
    after: time.optional(),
    before: time.optional(),
    weekdays: weekdays.optional(),
  }),
  strict({
    type: z.literal('sun'),
    is: z.enum(['up', 'down'], { error: (issue) => `${fieldOf(issue)} must be up or down` }),
  }),
] as const);

const ACTION_TYPES = ['device', 'scene', 'wait', 'notify', 'automation'] as const;
export const actionSchema = union(ACTION_TYPES, [
  strict({
    type: z.literal('device'),
    device_id: id('device_id'),
    state: z
      .record(z.string(), z.unknown(), {
        error: (issue) => `${fieldOf(issue)} must be an object of properties and values`,
      })
      .refine((state) => Object.keys(state).length > 0 && Object.keys(state).length <= 50, {
        error: (issue) => `${fieldOf(issue)} must set 1 to 50 properties`,
      }),
  }),
  strict({ type: z.literal('scene'), scene_id: id('scene_id') }),
  strict({ type: z.literal('wait'), seconds }),
  strict({
    type: z.literal('notify'),
    to: z.union([z.literal('household'), z.array(id('to')).min(1).max(100)], {
      error: (issue) => E.notifyTo(fieldOf(issue)),
    }),
    title: text(120),
    body: text(1000),
  }),
  strict({ type: z.literal('automation'), automation_id: id('automation_id'), enabled: boolean }),
] as const);

const list = <T extends z.ZodType>(item: T, min: number, max: number, message: string) =>
  z
    .array(item, { error: (issue) => (issue.code === 'invalid_type' ? message : undefined) })
    .min(min, { error: message })
    .max(max, { error: message });

const fields = {
  name: z.string({ error: E.name }).trim().min(1, { error: E.name }).max(64, { error: E.name }),
  enabled: z.boolean({ error: E.enabled }),
  mode: z.enum(AUTOMATION_MODES, { error: E.mode }),
  catch_up: z.enum(CATCH_UP_MODES, { error: E.catchUp }),
  triggers: list(triggerSchema, 1, 20, E.triggers),
  conditions: list(conditionSchema, 0, 20, E.conditions),
  actions: list(actionSchema, 1, 50, E.actions),
};

/** POST /api/automations */
export const createAutomationBody = strict({
  name: fields.name,
  enabled: fields.enabled.default(true),
  mode: fields.mode.default('single'),
  catch_up: fields.catch_up.default('skip'),
  triggers: fields.triggers,
  conditions: fields.conditions.default([]),
  actions: fields.actions,
});

/** PATCH /api/automations/{id}: any of the fields. */
export const updateAutomationBody = strict({
  name: fields.name.optional(),
  enabled: fields.enabled.optional(),
  mode: fields.mode.optional(),
  catch_up: fields.catch_up.optional(),
  triggers: fields.triggers.optional(),
  conditions: fields.conditions.optional(),
  actions: fields.actions.optional(),
});

export type CreateAutomation = z.output<typeof createAutomationBody>;
export type UpdateAutomation = z.output<typeof updateAutomationBody>;

/** GET /api/automations?cursor=&limit= */
export const listAutomationsQuery = z.object({
  cursor: z.string({ error: E.cursor }).max(400, { error: E.cursor }).optional(),
  limit: z.coerce
    .number({ error: E.limit })
    .int({ error: E.limit })
    .min(1, { error: E.limit })
    .max(100, { error: E.limit })
    .optional(),
});

/** PUT /api/automations/location */
export const locationBody = strict({
  latitude: z
    .number({ error: E.latitude })
    .min(-90, { error: E.latitude })
    .max(90, { error: E.latitude })
    .nullable(),
  longitude: z
    .number({ error: E.longitude })
    .min(-180, { error: E.longitude })
    .max(180, { error: E.longitude })
    .nullable(),
});

// The parts' types as the contracts name them (what the schemas give is checked against them).
export type Trigger = AutomationTrigger;
export type Condition = AutomationCondition;
export type Action = AutomationAction;
