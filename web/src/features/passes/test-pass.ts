import type { PassInfo } from '@hearth/contracts';

/** GET /api/pass/{token}'s answer for tests: an active control pass without limits, but `fields`. */
export const testPassInfo = (fields: Partial<PassInfo> = {}): PassInfo => ({
  label: null,
  level: 'control',
  status: 'active',
  starts_at: null,
  ends_at: null,
  schedule: null,
  next_start: null,
  time_zone: 'UTC',
  ...fields,
});
