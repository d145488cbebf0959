import { toDevice } from './device.model.js';
import type { Device, Json } from './device.types.js';

/** A displayed device from raw fields, as the store would build it (for tests). */
export const deviceFrom = (
  raw: Json,
  extra: { hasMetadata?: boolean; stateUpdatedAt?: number } = {},
): Device =>
  toDevice({
    key: String(raw.id ?? 'key-1'),
    raw,
    hasMetadata: extra.hasMetadata ?? false,
    metadataUpdatedAt: null,
    stateUpdatedAt: extra.stateUpdatedAt ?? null,
  });
