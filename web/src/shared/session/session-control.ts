import { createContext, useContext } from 'react';
import type { SavedTokens } from './token-store.js';

export type AuthTab = 'login' | 'signup';

/**
 * What the auth modal needs from the session beyond SessionValue: entering "signed in" with a
 * token pair (docs/screens.md#session) and the modal's open state. Provided by the session feature.
 */
export interface SessionControl {
  /** Saves the tokens and fetches /me; resolves with an error message, or null when signed in. */
  signIn(tokens: SavedTokens): Promise<string | null>;
  authModal: { open: boolean; tab: AuthTab };
  setAuthTab(tab: AuthTab): void;
  closeAuthModal(): void;
}

export const SessionControlContext = createContext<SessionControl>({
  signIn: async () => 'No session',
  authModal: { open: false, tab: 'login' },
  setAuthTab: () => {},
  closeAuthModal: () => {},
});

export const useSessionControl = (): SessionControl => useContext(SessionControlContext);
