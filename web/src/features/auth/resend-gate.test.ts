import { describe, expect, it } from 'vitest';
import { RESEND_COOLDOWN_MS, resendBlockedBy } from './resend-gate.js';

describe('resendBlockedBy (docs/screens.md#two-factor-form)', () => {
  const start = 1_000_000;
  const cooling = { inFlight: false, cooldownUntil: start + RESEND_COOLDOWN_MS };

  it('refuses a second request while one is in flight', () => {
    expect(resendBlockedBy({ inFlight: true, cooldownUntil: 0 }, start)).toBe(
      'Request already in progress...',
    );
  });

  it.each([
    [0, 'Please wait 30s before requesting another code'],
    [1, 'Please wait 30s before requesting another code'],
    [1000, 'Please wait 29s before requesting another code'],
    [29_001, 'Please wait 1s before requesting another code'],
    [30_000, null],
  ])('%s ms after a request → %j', (elapsed, message) => {
    expect(resendBlockedBy(cooling, start + elapsed)).toBe(message);
  });
});
