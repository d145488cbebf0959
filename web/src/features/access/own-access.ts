import { isManager, type User } from '@hearth/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { fetchRules } from './access.api.js';
import { seesAnything } from './access.model.js';

/** What the app knows of the signed-in `user`'s own rules: not yet, or whether any gives them something to see. */
type Known = { userId: string; sees: boolean } | null;

/**
 * docs/screens.md#devices-for-a-user: whether a `user` has any rule at view or control, read from
 * GET /api/access/{own id} when they sign in, when a page that cares mounts, and when the window
 * gets the focus back (a rule changed meanwhile). One answer shared by the sidebar and the pages.
 */
class OwnAccess {
  private known: Known = null;
  private listeners = new Set<() => void>();
  private inFlight: string | null = null;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.known;

  load(userId: string) {
    if (this.inFlight === userId) return;
    this.inFlight = userId;
    void fetchRules(userId).then((answer) => {
      if (this.inFlight === userId) this.inFlight = null;
      const sees = answer.success && seesAnything(answer.data);
      if (this.known?.userId === userId && this.known.sees === sees) return;
      this.known = { userId, sees };
      for (const listener of this.listeners) listener();
    });
  }
}

const own = new OwnAccess();

export interface DevicesAccess {
  /** True until a `user`'s rules have been read. */
  loading: boolean;
  /** The Devices entry and page: managers always, a `user` with any rule at view or control. */
  allowed: boolean;
}

export function useDevicesAccess(user: User | null, refreshKey?: unknown): DevicesAccess {
  const known = useSyncExternalStore(own.subscribe, own.getSnapshot);
  const plainUserId = user && !isManager(user.role) ? user.id : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey (the path) asks again on navigation.
  useEffect(() => {
    if (!plainUserId) return;
    own.load(plainUserId);
    const onFocus = () => own.load(plainUserId);
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [plainUserId, refreshKey]);
  if (!user) return { loading: false, allowed: false };
  if (isManager(user.role)) return { loading: false, allowed: true };
  const mine = known?.userId === user.id ? known : null;
  return { loading: mine === null, allowed: mine?.sees ?? false };
}
