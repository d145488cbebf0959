import { ROOM_ICONS, SCENE_MAX_TARGETS } from '@hearth/contracts';
import { z } from 'zod';
import { SCENES_ERRORS as E } from './scenes.errors.js';

const name = z.string({ error: E.name }).trim().min(1, { error: E.name }).max(64, { error: E.name });
const icon = z.enum(ROOM_ICONS, { error: E.icon }).nullable();
const roomId = z
  .string({ error: E.roomId })
  .min(1, { error: E.roomId })
  .max(200, { error: E.roomId })
  .nullable();
const state = z
  .record(z.string(), z.unknown(), { error: E.state })
  .refine((value) => Object.keys(value).length > 0 && Object.keys(value).length <= 50, { error: E.state });
const target = z.strictObject(
  {
    device_id: z.string({ error: E.targets }).min(1, { error: E.targets }).max(200, { error: E.targets }),
    state,
  },
  { error: E.targets },
);
const targets = z
  .array(target, { error: E.targets })
  .min(1, { error: E.targets })
  .max(SCENE_MAX_TARGETS, { error: E.targets })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const each of list) {
      if (seen.has(each.device_id)) ctx.addIssue({ code: 'custom', message: E.repeated(each.device_id) });
      seen.add(each.device_id);
    }
  });

/** POST /api/scenes */
export const createSceneBody = z.object({
  name,
  icon: icon.optional(),
  room_id: roomId.optional(),
  targets,
});
export type CreateScene = z.output<typeof createSceneBody>;

/** PATCH /api/scenes/{id} */
export const updateSceneBody = z.object({
  name: name.optional(),
  icon: icon.optional(),
  room_id: roomId.optional(),
  targets: targets.optional(),
});
export type UpdateScene = z.output<typeof updateSceneBody>;

/** POST /api/scenes/capture */
export const captureSceneBody = z.object({
  name,
  icon: icon.optional(),
  room_id: roomId.optional(),
  device_ids: z
    .array(z.string({ error: E.deviceIds }).min(1, { error: E.deviceIds }).max(200, { error: E.deviceIds }), {
      error: E.deviceIds,
    })
    .min(1, { error: E.deviceIds })
    .max(SCENE_MAX_TARGETS, { error: E.deviceIds }),
});
export type CaptureScene = z.output<typeof captureSceneBody>;
