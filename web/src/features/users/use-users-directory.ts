import type { Role, User, UsersPage } from '@hearth/contracts';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { useToast } from '../../shared/toast/toast-context.js';
import { usersApi } from './users.api.js';
import { USERS_MESSAGES } from './users.messages.js';
import { initialUsersQuery, usersQueryReducer } from './users.query.js';

export interface Saving {
  id: string;
  kind: 'role' | 'lockout';
}

/** The Users page's state: the query, the loaded page, the alert and in-flight saves; successes go to the app's toast. */
export function useUsersDirectory(enabled: boolean) {
  const [query, dispatch] = useReducer(usersQueryReducer, initialUsersQuery);
  const [reloads, setReloads] = useState(0);
  const [list, setList] = useState<UsersPage | null>(null);
  const [loading, setLoading] = useState(enabled);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<Saving | null>(null);
  const { showToast } = useToast();

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads is the explicit "fetch again" trigger.
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    setLoading(true);
    usersApi.list(query).then((result) => {
      if (!current) return;
      if (result.success && Array.isArray(result.data?.users)) {
        setList(result.data);
        setError((shown) => (shown === USERS_MESSAGES.fetchFailed ? null : shown));
      } else {
        setError(USERS_MESSAGES.fetchFailed);
      }
      setLoading(false);
    });
    return () => {
      current = false;
    };
  }, [enabled, query, reloads]);

  const changeRole = useCallback(
    async (user: User, role: Role, resetAccess: boolean) => {
      if (role === user.role) return;
      setSaving({ id: user.id, kind: 'role' });
      setError(null);
      const result = await usersApi.setRole(user.id, role, resetAccess);
      setSaving(null);
      if (result.success) showToast(USERS_MESSAGES.roleUpdated);
      else setError(USERS_MESSAGES.roleFailed);
      setReloads((n) => n + 1);
    },
    [showToast],
  );

  const toggleLock = useCallback(
    async (user: User) => {
      const locked = !user.lockout_enabled;
      setSaving({ id: user.id, kind: 'lockout' });
      setError(null);
      const result = await usersApi.setLockout({ id: user.id, locked });
      setSaving(null);
      if (result.success) showToast(locked ? USERS_MESSAGES.locked : USERS_MESSAGES.unlocked);
      else setError(USERS_MESSAGES.lockoutFailed);
      setReloads((n) => n + 1);
    },
    [showToast],
  );

  return {
    query,
    dispatch,
    list,
    loading,
    firstLoad: list === null && error === null,
    error,
    saving,
    changeRole,
    toggleLock,
  };
}
