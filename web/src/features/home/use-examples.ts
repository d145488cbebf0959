import type { User } from '@hearth/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useToast } from '../../shared/toast/toast-context.js';
import { HOME_MESSAGES } from './home.messages.js';
import { preferencesApi } from './preferences.api.js';

export interface ExamplesChoice {
  /** False until a signed-in person's choice has been read (nothing is drawn meanwhile, so no flash). */
  known: boolean;
  hidden: boolean;
  setHidden(hidden: boolean): void;
}

/**
 * docs/screens.md#examples: whether home shows SPEC's sample tiles, remembered per person on the
 * server (GET and PATCH /api/auth/preferences), so each of their browsers follows it. Signed out,
 * they are always shown. A refused change is put back and its error shown in a toast. Changes are
 * sent one after another, the newest choice last (two quick clicks cannot reach the server in the
 * wrong order and leave it with the older one).
 */
export function useExamples(user: User | null): ExamplesChoice {
  const userId = user?.id ?? null;
  const toast = useToast();
  const [choice, setChoice] = useState<{ userId: string; hidden: boolean } | null>(null);
  useEffect(() => {
    if (!userId) return;
    let current = true;
    void preferencesApi.get().then((result) => {
      // Unreadable preferences show the examples: nothing is lost by seeing them.
      if (current) setChoice({ userId, hidden: result.success && result.data.hide_examples === true });
    });
    return () => {
      current = false;
    };
  }, [userId]);
  // The choice waiting to be sent while one is on its way (null: none).
  const outbox = useRef<{ sending: boolean; next: boolean | null }>({ sending: false, next: null });
  const setHidden = useCallback(
    (hidden: boolean) => {
      if (!userId) return;
      setChoice({ userId, hidden });
      const box = outbox.current;
      box.next = hidden;
      if (box.sending) return;
      box.sending = true;
      void (async () => {
        while (box.next !== null) {
          const wanted = box.next;
          box.next = null;
          const result = await preferencesApi.change({ hide_examples: wanted });
          // A newer choice waiting replaces this one anyway: only the last refusal is put back.
          if (result.success || box.next !== null) continue;
          setChoice({ userId, hidden: !wanted });
          toast.showToast(result.error ?? HOME_MESSAGES.examplesFailed);
        }
        box.sending = false;
      })();
    },
    [userId, toast],
  );
  if (!userId) return { known: true, hidden: false, setHidden };
  const mine = choice?.userId === userId ? choice : null;
  return { known: mine !== null, hidden: mine?.hidden ?? false, setHidden };
}
