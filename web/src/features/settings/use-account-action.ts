import { useCallback, useState } from 'react';
import type { ApiResult } from '../../shared/api/client.js';
import { useSession } from '../../shared/session/session-context.js';
import { failureMessage, SETTINGS_MESSAGES, type SettingsAction } from './settings.messages.js';

export type StatusTone = 'progress' | 'success' | 'error';
export interface Status {
  text: string;
  tone: StatusTone;
}

/**
 * docs/screens.md#security-card: each action shows its progress message, then its success or failure message; after
 * a success the user is fetched again. Resolves true on success.
 */
export function useAccountAction() {
  const { refreshUser } = useSession();
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState<SettingsAction | null>(null);

  const run = useCallback(
    async (
      action: SettingsAction,
      call: () => Promise<ApiResult>,
      onSuccess?: (result: ApiResult) => void,
    ): Promise<boolean> => {
      const messages = SETTINGS_MESSAGES[action];
      setBusy(action);
      setStatus({ text: messages.progress, tone: 'progress' });
      try {
        const result = await call();
        if (!result.success) {
          setStatus({ text: failureMessage(action, result), tone: 'error' });
          return false;
        }
        onSuccess?.(result);
        await refreshUser();
        setStatus({ text: messages.success, tone: 'success' });
        return true;
      } finally {
        setBusy(null);
      }
    },
    [refreshUser],
  );

  const fail = useCallback((text: string) => setStatus({ text, tone: 'error' }), []);

  return { status, setStatus, busy, run, fail };
}

export type AccountAction = ReturnType<typeof useAccountAction>;
