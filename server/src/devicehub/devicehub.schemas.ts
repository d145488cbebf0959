import {
  type DeviceBulkCommandRequest,
  type DeviceCommandRequest,
  type DeviceRenameCommand,
  type DeviceRenameRequest,
  type DeviceSetCommand,
  MAX_BULK_COMMANDS,
} from '@hearth/contracts';
import { z } from 'zod';
import { withoutControlCharacters } from '../http/validation.js';
import { DevicehubMessages as M } from './devicehub.errors.js';

const missingOrInvalid = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? M.missingCommand : M.invalidCommand;

/** GET /api/devicehub/devices?ids=…: how many devices one request may name. */
export const MAX_LISTED_IDS = 100;

/**
 * GET /api/devicehub/devices?first=N: the first N (1–500) devices in the page's order; or
 * `?ids=a,b,…`: those devices (a page's favourites), in that order. Not both.
 */
export const deviceListQuery = z
  .object({
    first: z.coerce
      .number({ error: M.invalidFirst })
      .int({ error: M.invalidFirst })
      .min(1, { error: M.invalidFirst })
      .max(500, { error: M.invalidFirst })
      .optional(),
    ids: z
      .string({ error: M.invalidIds })
      .transform((value) => value.split(','))
      .pipe(
        z
          .array(z.string().min(1, { error: M.invalidIds }))
          .min(1, { error: M.invalidIds })
          .max(MAX_LISTED_IDS, { error: M.invalidIds }),
      )
      .optional(),
  })
  .refine((query) => query.first === undefined || query.ids === undefined, { error: M.firstOrIds });

/**
 * POST /api/devicehub/devices/:id/commands: `{input: {id, value}, state?: {on?, …}}` (docs/api.md#devices).
 * What a device can take is the adapter's to judge; this is the shape, with the messages of docs/strings.md#devices.
 */
export const deviceCommandBody = z
  .object(
    {
      input: z
        .object(
          { id: z.string({ error: M.invalidCommand }), value: z.unknown() },
          { error: M.invalidCommand },
        )
        .refine((input) => 'value' in input, { error: M.invalidCommand })
        .optional(),
      state: z.record(z.string(), z.unknown(), { error: M.invalidCommand }).optional(),
    },
    { error: missingOrInvalid },
  )
  .refine((command) => command.input !== undefined || command.state !== undefined, {
    error: M.missingCommand,
  }) satisfies z.ZodType<DeviceCommandRequest, unknown>;

/**
 * POST /api/devicehub/commands: `{commands: [{device_id, input?, state?}, …]}`, 1 to
 * MAX_BULK_COMMANDS of them (docs/devicehub.md#commands-to-several-devices). Each command's shape
 * is a single command's; what each device can take is its adapter's to judge.
 */
export const deviceBulkCommandBody = z.object(
  {
    commands: z
      .array(
        z
          .object(
            {
              device_id: z.string({ error: M.invalidCommands }).min(1, { error: M.invalidCommands }),
              input: z
                .object(
                  { id: z.string({ error: M.invalidCommand }), value: z.unknown() },
                  { error: M.invalidCommand },
                )
                .refine((input) => 'value' in input, { error: M.invalidCommand })
                .optional(),
              state: z.record(z.string(), z.unknown(), { error: M.invalidCommand }).optional(),
            },
            { error: M.invalidCommands },
          )
          .refine((command) => command.input !== undefined || command.state !== undefined, {
            error: M.missingCommand,
          }),
        { error: M.invalidCommands },
      )
      .min(1, { error: M.invalidCommands })
      .max(MAX_BULK_COMMANDS, { error: M.invalidCommands }),
  },
  { error: M.invalidCommands },
) satisfies z.ZodType<DeviceBulkCommandRequest, unknown>;

/** PATCH /api/devicehub/devices/:id: `{name}`; the hub trims it and refuses an empty one. */
export const deviceRenameBody = z.object(
  { name: z.string({ error: M.emptyName }) },
  { error: M.emptyName },
) satisfies z.ZodType<DeviceRenameRequest, unknown>;

/** `commands/device.set` from a browser (docs/devicehub.md#stream); no control characters, as over REST. */
export const deviceSetCommand = withoutControlCharacters(
  z.object({
    device_id: z.string({ error: M.missingDeviceId }),
    state: z.record(z.string(), z.unknown(), { error: M.invalidCommand }),
  }),
) satisfies z.ZodType<DeviceSetCommand, unknown>;

/** `commands/device.rename` from a browser (docs/devicehub.md#stream); no control characters, as over REST. */
export const deviceRenameCommand = withoutControlCharacters(
  z.object({
    device_id: z.string({ error: M.missingDeviceId }),
    name: z.string({ error: M.emptyName }),
  }),
) satisfies z.ZodType<DeviceRenameCommand, unknown>;
