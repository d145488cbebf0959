/** Every message the alerts calls answer with (docs/alerts.md#api); asserted in tests. */
export const ALERTS_ERRORS = {
  deviceNotFound: 'Device not found',
  offlineAfter: 'offline_after_minutes must be a whole number from 0 to 1440, or null',
  batteryBelow: 'battery_below must be a whole number from 1 to 90, or null',
  flag: (field: string) => `${field} must be true or false`,
  repeat: 'repeat_critical_minutes must be a whole number from 1 to 1440',
} as const;
