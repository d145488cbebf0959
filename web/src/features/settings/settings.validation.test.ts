import { describe, expect, it } from 'vitest';
import {
  PICTURE_MAX_BYTES,
  validatePasswordChange,
  validatePicture,
  validateProfile,
  validateUploadChoice,
} from './settings.validation.js';

describe('profile edit (docs/strings.md#validation-rules)', () => {
  it.each([
    ['Ada', 'Lovelace', null],
    ['', 'Lovelace', '❌ First name and last name are required'],
    ['Ada', '   ', '❌ First name and last name are required'],
    [' ', '', '❌ First name and last name are required'],
  ])('first %j last %j → %j', (first, last, expected) => {
    expect(validateProfile(first, last)).toBe(expected);
  });
});

describe('change password (docs/strings.md#validation-rules)', () => {
  it.each([
    [['old-pass-1', 'new-pass-1', 'new-pass-1'], null],
    [['', 'new-pass-1', 'new-pass-1'], '❌ All password fields are required'],
    [['old-pass-1', '', 'new-pass-1'], '❌ All password fields are required'],
    [['old-pass-1', 'new-pass-1', ''], '❌ All password fields are required'],
    [['old-pass-1', 'new-pass-1', 'new-pass-2'], '❌ New passwords do not match'],
    [
      ['same-pass-1', 'same-pass-1', 'same-pass-1'],
      '❌ New password must be different from current password',
    ],
    [['old-pass-1', 'short', 'short'], '❌ New password must be at least 8 characters'],
    [['old-pass-1', '1234567', '1234567'], '❌ New password must be at least 8 characters'],
    [['old-pass-1', '12345678', '12345678'], null],
  ] as [[string, string, string], string | null][])(
    '%j → %j',
    ([currentPassword, newPassword, confirmPassword], expected) => {
      expect(validatePasswordChange({ currentPassword, newPassword, confirmPassword })).toBe(expected);
    },
  );
});

describe('picture upload (docs/strings.md#validation-rules)', () => {
  it.each([
    [{ type: 'image/png', size: 1000 }, null],
    [{ type: 'image/jpeg', size: PICTURE_MAX_BYTES }, null],
    [{ type: 'image/png', size: PICTURE_MAX_BYTES + 1 }, '❌ File too large (max 5MB)'],
    [{ type: 'text/plain', size: 10 }, '❌ Please select an image file'],
    [{ type: '', size: 10 }, '❌ Please select an image file'],
  ])('%j → %j', (file, expected) => {
    expect(validatePicture(file)).toBe(expected);
  });

  it('asks for a file when Upload is pressed without one', () => {
    expect(validateUploadChoice(null)).toBe('❌ Please select a file first');
    expect(validateUploadChoice(new File(['x'], 'a.png', { type: 'image/png' }))).toBeNull();
  });
});
