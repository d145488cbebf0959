/** The hooks that sign a route's caller in (the accounts domain's guards), as the API document tells them apart. */
const guards = new WeakSet<object>();

/** Marks a route hook as a sign-in guard: routes with it need a Bearer token (docs/api.md#openapi). */
export function signInGuard<T extends object>(guard: T): T {
  guards.add(guard);
  return guard;
}

/** Whether a route's hook is a sign-in guard. */
export const isSignInGuard = (hook: unknown): boolean => typeof hook === 'function' && guards.has(hook);
