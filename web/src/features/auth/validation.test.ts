import { describe, expect, it } from 'vitest';
import { validateResetConfirm, validateResetRequest, validateSignUp } from './validation.js';

const full = { firstName: 'Ada', lastName: 'L', userName: 'ada', email: 'a@b.c', password: 'secret123' };

describe('validateSignUp', () => {
  it('accepts five filled fields', () => expect(validateSignUp(full)).toBeNull());
  it.each(['firstName', 'lastName', 'userName', 'email', 'password'] as const)(
    'requires %s after trimming',
    (field) => {
      expect(validateSignUp({ ...full, [field]: '   ' })).toBe('All fields are required');
    },
  );
});

describe('forgot password', () => {
  it('step 1 needs an e-mail', () => {
    expect(validateResetRequest(' ')).toBe('Email is required');
    expect(validateResetRequest('a@b.c')).toBeNull();
  });

  it.each([
    ['', 'newpass12', 'newpass12', 'All fields are required'],
    ['123456', '', 'x', 'All fields are required'],
    ['123456', 'newpass12', ' ', 'All fields are required'],
    ['123456', 'newpass12', 'newpass13', 'Passwords do not match'],
    ['123456', 'newpass12', 'newpass12', null],
  ])('step 2 with code %j, %j / %j → %j', (code, next, confirm, expected) => {
    expect(validateResetConfirm(code, next, confirm)).toBe(expected);
  });
});
