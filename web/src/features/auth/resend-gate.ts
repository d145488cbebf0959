/** docs/screens.md#two-factor-form / docs/strings.md#constants-and-limits: "Request New Code" waits 30 s between requests. */
export const RESEND_COOLDOWN_MS = 30_000;

export interface ResendState {
  inFlight: boolean;
  /** Epoch ms until which a new request must wait. */
  cooldownUntil: number;
}

/** Why a new code may not be requested now, or null when it may. */
export function resendBlockedBy(state: ResendState, nowMs: number): string | null {
  if (state.inFlight) return 'Request already in progress...';
  const left = Math.ceil((state.cooldownUntil - nowMs) / 1000);
  if (left > 0) return `Please wait ${left}s before requesting another code`;
  return null;
}
