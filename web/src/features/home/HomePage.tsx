import { useCallback, useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { useDevicesAccess } from '../access/own-access.js';
import { Examples } from './Examples.js';
import { Greeting } from './Greeting.js';
import { HOME_MESSAGES } from './home.messages.js';
import { HomeLive } from './home-live.lazy.js';
import type { LiveContent } from './live/live-content.js';
import { useExamples } from './use-examples.js';
import './home.css';

/**
 * docs/screens.md#home: the greeting, the person's favourites and rooms (a resident's or admin's,
 * or a `user`'s whose access rules show them devices), and SPEC's sample tiles under "Examples":
 * below the real content, or first while there is none (a fresh install without devices, signed
 * out, a `user` without access).
 */
export function HomePage() {
  const { user } = useSession();
  const access = useDevicesAccess(user);
  const examples = useExamples(user);
  const [reported, setReported] = useState<{ userId: string | null; content: LiveContent } | null>(null);
  const userId = user?.id ?? null;
  const onContent = useCallback((content: LiveContent) => setReported({ userId, content }), [userId]);
  const live = reported?.userId === userId ? reported.content : 'pending';
  const noAccess = user !== null && !access.loading && !access.allowed;
  // Until the live part (or a `user`'s rules) says whether there is anything, the examples wait
  // rather than jump.
  const waiting = access.loading || (access.allowed && live === 'pending');
  const examplesFirst = !access.allowed || live === 'none';
  const parts = [
    access.allowed ? <HomeLive key="live" onContent={onContent} /> : null,
    waiting ? null : <Examples key="examples" choice={examples} signedIn={user !== null} />,
  ];
  return (
    <>
      <Greeting user={user} />
      {noAccess && <p className="home-hint home-no-access">{HOME_MESSAGES.noAccess}</p>}
      {examplesFirst ? parts.reverse() : parts}
    </>
  );
}
