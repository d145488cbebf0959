import type { ApiResult } from '../../shared/api/client.js';

/** docs/strings.md#account-settings and docs/strings.md#validation-rules: every text the Account Settings overlay and the picture modal show. */
export const SETTINGS_MESSAGES = {
  verifyRequest: {
    progress: 'Requesting email verification...',
    success: 'Check your email for the code.',
    failure: 'Failed to request email verification',
  },
  verifyConfirm: {
    progress: 'Confirming email...',
    success: '✅ Email verified successfully!',
    failure: '❌ Email verification failed',
  },
  twoFactorSetup: {
    progress: 'Setting up 2FA...',
    success: 'Check your email for the 2FA code.',
    failure: '❌ Failed to setup 2FA',
  },
  twoFactorVerify: {
    progress: 'Verifying 2FA...',
    success: '✅ 2FA enabled successfully!',
    // docs/strings.md#account-settings shows no fallback here; docs/strings.md#second-factor's "2FA verification failed" is the closest text.
    failure: '❌ 2FA verification failed',
  },
  profile: {
    progress: 'Updating profile...',
    success: '✅ Profile updated successfully!',
    failure: '❌ Profile update failed',
  },
  password: {
    progress: 'Updating password...',
    success: '✅ Password updated successfully!',
    failure: '❌ Password update failed',
  },
  avatar: {
    progress: 'Generating avatar...',
    success: '✅ Avatar generated successfully!',
    failure: '❌ Avatar generation failed',
  },
  upload: {
    progress: 'Uploading profile picture...',
    success: '✅ Profile picture updated successfully!',
    failure: '❌ Upload failed',
  },
} as const;

export type SettingsAction = keyof typeof SETTINGS_MESSAGES;

/** docs/strings.md#account-settings-texts: turning 2FA off, and why it cannot be turned on yet. */
export const TWO_FACTOR_OFF = {
  button: 'Turn off 2FA',
  title: 'Turn off two-factor authentication',
  text: 'Enter your password to turn off 2FA. Signing in will then need only your password.',
  password: 'Password',
  cancel: 'Cancel',
  confirm: 'Turn off 2FA',
  busy: 'Turning off...',
  required: 'Password is required',
  failure: 'Failed to turn off 2FA',
  done: '2FA turned off',
  unverified: 'Verify your email address first: the 2FA codes are sent to it.',
} as const;

/** The text the server itself sent (data.error, else data.message), never a transport fallback. */
export function serverError(result: Pick<ApiResult, 'data'>): string | undefined {
  const data = result.data as { error?: unknown; message?: unknown } | null | undefined;
  if (typeof data?.error === 'string' && data.error.trim()) return data.error;
  if (typeof data?.message === 'string' && data.message.trim()) return data.message;
  return undefined;
}

/**
 * docs/strings.md#account-settings: a failure shows the server's error when there is one, otherwise the action's
 * fallback; the ❌ prefix goes only on the actions whose fallback carries it (the e-mail
 * verification request has none). docs/strings.md#validation-rules: a 400 whose error mentions "password" is shown as is.
 */
export function failureMessage(action: SettingsAction, result: Pick<ApiResult, 'data' | 'status'>): string {
  const fallback: string = SETTINGS_MESSAGES[action].failure;
  const error = serverError(result);
  if (!error) return fallback;
  if (!fallback.startsWith('❌')) return error;
  if (result.status === 400 && /password/i.test(error)) return error;
  return `❌ ${error}`;
}
