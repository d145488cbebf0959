import type { SignUpInput } from './auth.api.js';

/** docs/strings.md#validation-rules, sign-up: all five fields required after trimming. */
export function validateSignUp(input: SignUpInput): string | null {
  const fields = [input.firstName, input.lastName, input.userName, input.email, input.password];
  return fields.every((value) => value.trim() !== '') ? null : 'All fields are required';
}

/** docs/strings.md#validation-rules, forgot password step 1. */
export function validateResetRequest(email: string): string | null {
  return email.trim() === '' ? 'Email is required' : null;
}

/** docs/strings.md#validation-rules, forgot password step 2. */
export function validateResetConfirm(
  code: string,
  newPassword: string,
  confirmPassword: string,
): string | null {
  if ([code, newPassword, confirmPassword].some((value) => value.trim() === ''))
    return 'All fields are required';
  if (newPassword !== confirmPassword) return 'Passwords do not match';
  return null;
}
