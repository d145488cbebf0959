import { describe, expect, it } from 'vitest';
import { greetingText } from './Greeting.js';

describe('greetingText', () => {
  it.each([
    [null, 'Welcome back!'],
    [{ first_name: 'Ada', user_name: 'ada', name: 'A' }, 'Welcome back, Ada!👋'],
    [{ first_name: '', user_name: 'ada', name: 'A' }, 'Welcome back, ada!👋'],
    [{ name: 'Ada L' }, 'Welcome back, Ada L!👋'],
    [{}, 'Welcome back!'],
  ])('greets %j as %s', (user, expected) => {
    expect(greetingText(user)).toBe(expected);
  });
});
