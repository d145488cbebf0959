import { SOURCE_PROTOCOLS } from '@hearth/contracts';
import { z } from 'zod';
import { SOURCES_ERRORS as E } from './sources.errors.js';

/** `/api/devicehub/sources/:protocol/…` */
export const sourceParams = z.object({
  protocol: z.enum(SOURCE_PROTOCOLS, { error: E.unknownSource }),
});

/** POST /api/devicehub/sources/{protocol}/forget (docs/api.md#sources). */
export const forgetBody = z.object({
  topic: z
    .string({ error: E.topic })
    .trim()
    .min(1, { error: E.topic })
    .max(512, { error: E.topic })
    .refine((topic) => !/[#+]/.test(topic), { error: E.topic }),
});
