import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-rules.js';

describe('password rules', () => {
  it.each([
    ['short12', 'Password must be at least 8 characters'],
    ['x'.repeat(129), 'Password must be at most 128 characters'],
    // Length counts characters, not UTF-16 units or bytes.
    ['🔥'.repeat(7), 'Password must be at least 8 characters'],
  ])('refuses %s by length', async (password, problem) => {
    expect(await passwordProblem(password)).toBe(problem);
  });

  it.each([
    'password',
    '12345678',
    'baseball',
    'football',
    'qwertyuiop',
    '1qaz2wsx',
    'trustno1',
    'Sunshine',
    'ILOVEYOU',
    'password1',
  ])('refuses the common password %s, in any case', async (password) => {
    expect(await passwordProblem(password)).toBe(
      'This password is too common: choose a less guessable password',
    );
  });

  it.each(['correct horse battery staple', 'Tr0ub4dor&3-of-Hearth', '🔥'.repeat(8)])(
    'accepts %s',
    async (password) => {
      expect(await passwordProblem(password)).toBeUndefined();
    },
  );
});
