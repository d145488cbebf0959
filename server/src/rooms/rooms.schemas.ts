import { MAX_DEVICE_IDS, ROOM_ICONS, ROOM_NAME_MAX_LENGTH } from '@hearth/contracts';
import { z } from 'zod';
import { ROOMS_ERRORS as E } from './rooms.errors.js';

/** docs/rooms.md#names: trimmed, then 1 to 64 characters. */
const name = z
  .string({ error: E.nameRequired })
  .trim()
  .min(1, { error: E.nameRequired })
  .max(ROOM_NAME_MAX_LENGTH, { error: E.nameTooLong });

const icon = z.enum(ROOM_ICONS, { error: E.unknownIcon });
const floorId = z.string({ error: E.floorId }).min(1, { error: E.floorId }).nullable();
const order = z.number({ error: E.order }).int({ error: E.order }).min(0, { error: E.order });

/** POST /api/rooms */
export const createRoomBody = z.object({ name, icon: icon.optional(), floor_id: floorId.optional() });
export type CreateRoom = z.output<typeof createRoomBody>;

/** PATCH /api/rooms/:id: only these fields; others are dropped. */
export const updateRoomBody = z.object({
  name: name.optional(),
  icon: icon.optional(),
  order: order.optional(),
  floor_id: floorId.optional(),
});
export type UpdateRoom = z.output<typeof updateRoomBody>;

/** POST /api/floors */
export const createFloorBody = z.object({ name });
export type CreateFloor = z.output<typeof createFloorBody>;

/** PATCH /api/floors/:id */
export const updateFloorBody = z.object({ name: name.optional(), order: order.optional() });
export type UpdateFloor = z.output<typeof updateFloorBody>;

/** `{device_ids: [...]}`: assignment and favourites; no id twice. */
export const deviceIdsBody = z.object({
  device_ids: z
    .array(z.string({ error: E.deviceIds }).min(1, { error: E.deviceIds }), { error: E.deviceIds })
    .max(MAX_DEVICE_IDS, { error: E.tooManyDevices })
    .refine((ids) => new Set(ids).size === ids.length, { error: E.repeatedDevice }),
});
export type DeviceIds = z.output<typeof deviceIdsBody>;
