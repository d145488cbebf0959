import type { AccessRules, User } from '@hearth/contracts';
import { useCallback, useEffect, useState } from 'react';
import { fetchEveryone, fetchRules } from './access.api.js';
import { ACCESS_TEXTS } from './access.messages.js';
import { canEditRulesOf } from './access.model.js';

export interface PeopleRules {
  /** The people whose rules the viewer may edit, in the directory's order; null while loading. */
  people: User[] | null;
  /** Their saved rules, by user id. */
  saved: Record<string, AccessRules>;
  error: string | null;
  /** Takes what the server answered to a save. */
  update(rules: AccessRules): void;
}

/** How many rules are read at once. */
const PARALLEL = 6;

/**
 * The people whose access `viewer` may set (docs/screens.md#access-rules: everyone for an admin,
 * the `user` accounts for a resident) and each one's rules (GET /api/access/{user_id}).
 */
export function usePeopleRules(viewer: User | null, enabled = true): PeopleRules {
  const [people, setPeople] = useState<User[] | null>(null);
  const [saved, setSaved] = useState<Record<string, AccessRules>>({});
  const [error, setError] = useState<string | null>(null);
  const viewerRole = viewer?.role;

  useEffect(() => {
    if (!enabled || !viewerRole) return;
    let live = true;
    void (async () => {
      const everyone = await fetchEveryone();
      if (!live) return;
      if (!everyone.success) {
        setError(everyone.error ?? ACCESS_TEXTS.loadFailed);
        return;
      }
      const editable = everyone.data.filter((person) => canEditRulesOf(viewerRole, person.role));
      const rules: Record<string, AccessRules> = {};
      let failure: string | null = null;
      for (let start = 0; start < editable.length; start += PARALLEL) {
        const answers = await Promise.all(
          editable.slice(start, start + PARALLEL).map((person) => fetchRules(person.id)),
        );
        if (!live) return;
        answers.forEach((answer, index) => {
          const person = editable[start + index] as User;
          if (answer.success && answer.data) rules[person.id] = normalise(answer.data, person.id);
          else failure ??= answer.error ?? ACCESS_TEXTS.loadFailed;
        });
      }
      setSaved(rules);
      setPeople(editable);
      setError(failure);
    })();
    return () => {
      live = false;
    };
  }, [enabled, viewerRole]);

  const update = useCallback(
    (rules: AccessRules) =>
      setSaved((before) => ({ ...before, [rules.user_id]: normalise(rules, rules.user_id) })),
    [],
  );
  return { people, saved, error, update };
}

/** Rules as the page keeps them: both maps present whatever the answer held. */
const normalise = (rules: Partial<AccessRules>, userId: string): AccessRules => ({
  user_id: rules.user_id ?? userId,
  rooms: { ...rules.rooms },
  devices: { ...rules.devices },
});
