/** docs/strings.md#validation-rules: the checks the settings forms make before calling the server. null means valid. */

export const PASSWORD_MIN_LENGTH = 8;
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;

export function validateProfile(firstName: string, lastName: string): string | null {
  if (!firstName.trim() || !lastName.trim()) return '❌ First name and last name are required';
  return null;
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function validatePasswordChange({
  currentPassword,
  newPassword,
  confirmPassword,
}: PasswordChange): string | null {
  if (!currentPassword || !newPassword || !confirmPassword) return '❌ All password fields are required';
  if (newPassword !== confirmPassword) return '❌ New passwords do not match';
  if (newPassword === currentPassword) return '❌ New password must be different from current password';
  if (newPassword.length < PASSWORD_MIN_LENGTH) return '❌ New password must be at least 8 characters';
  return null;
}

/** Checked when a file is chosen. */
export function validatePicture(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return '❌ Please select an image file';
  if (file.size > PICTURE_MAX_BYTES) return '❌ File too large (max 5MB)';
  return null;
}

/** Checked when "Upload" is pressed. */
export function validateUploadChoice(file: File | null): string | null {
  return file ? null : '❌ Please select a file first';
}
