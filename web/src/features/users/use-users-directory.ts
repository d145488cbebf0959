import type { Role, User, UsersPage } from '@hearth/contracts';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { TOAST_DURATION_MS } from '../../shared/toast/toast-context.js';
import { usersApi } from './users.api.js';
import { USERS_MESSAGES } from './users.messages.js';
import { initialUsersQuery, usersQueryReducer } from './users.query.js';

const snackbarFor = (text: string) => ({ text, key: Date.now() });

export interface Saving {
  id: string;
  kind: 'role' | 'lockout';
}

/** The Users page's state: the query, the loaded page, the alert, the snackbar and in-flight saves. */
export function useUsersDirectory(enabled: boolean) {
  const [query, dispatch] = useReducer(usersQueryReducer, initialUsersQuery);
  const [reloads, setReloads] = useState(0);
  const [list, setList] = useState<UsersPage | null>(null);
  const [loading, setLoading] = useState(enabled);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<Saving | null>(null);
  const [snackbar, setSnackbar] = useState<{ text: string; key: number } | null>(null);

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

  useEffect(() => {
    if (!snackbar) return;
    const timer = setTimeout(() => setSnackbar(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [snackbar]);

  const changeRole = useCallback(async (user: User, role: Role) => {
    if (role === user.role) return;
    setSaving({ id: user.id, kind: 'role' });
    setError(null);
    const result = await usersApi.setRole(user.id, role);
    setSaving(null);
    if (result.success) setSnackbar(snackbarFor(USERS_MESSAGES.roleUpdated));
    else setError(USERS_MESSAGES.roleFailed);
    setReloads((n) => n + 1);
  }, []);

  const toggleLock = useCallback(async (user: User) => {
    const locked = !user.lockout_enabled;
    setSaving({ id: user.id, kind: 'lockout' });
    setError(null);
    const result = await usersApi.setLockout({ id: user.id, locked });
    setSaving(null);
    if (result.success) setSnackbar(snackbarFor(locked ? USERS_MESSAGES.locked : USERS_MESSAGES.unlocked));
    else setError(USERS_MESSAGES.lockoutFailed);
    setReloads((n) => n + 1);
  }, []);

  return {
    query,
    dispatch,
    list,
    loading,
    firstLoad: list === null && error === null,
    error,
    saving,
    snackbar,
    changeRole,
    toggleLock,
  };
}
