import { ACTIVITY_KINDS, ACTIVITY_PAGE_SIZE } from '@hearth/contracts';

/** Every message the activity API answers with (docs/activity.md#api); asserted in tests. */
export const ACTIVITY_ERRORS = {
  kind: `kind must be one of ${ACTIVITY_KINDS.join(', ')}`,
  from: 'from must be an ISO-8601 time or epoch milliseconds',
  to: 'to must be an ISO-8601 time or epoch milliseconds',
  range: 'from must be before to',
  cursor: 'cursor is not one this API gave',
  limit: `limit must be a whole number from 1 to ${ACTIVITY_PAGE_SIZE}`,
  tooLong: (name: string) => `${name} must be at most 200 characters`,
} as const;
