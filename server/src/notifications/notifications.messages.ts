/** Texts of notification mails (docs/strings.md#alerts). */
export const NOTIFICATION_TEXTS = {
  mailOpen: 'Open Hearth to see it, acknowledge it or turn off alerts for this device:',
  digestSubject: (count: number) =>
    count === 1 ? 'Hearth: 1 notification' : `Hearth: ${count} notifications`,
} as const;
