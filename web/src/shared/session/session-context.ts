import type { User } from '@hearth/contracts';
import { createContext, useContext } from 'react';

/**
 * docs/screens.md#session: the session as the app holds it. The provider (the session feature) fills it in;
 * every other feature only reads it through useSession().
 */
export interface SessionValue {
  user: User | null;
  /** Kept in memory only. */
  accessToken: string | null;
  loading: boolean;
  /** Fetches /api/auth/me again (after a settings change). */
  refreshUser(): Promise<void>;
  /** docs/screens.md#session logout. */
  logout(): Promise<void>;
  /** Opens the auth modal (Log In tab by default). */
  openAuthModal(tab?: 'login' | 'signup'): void;
}

export const SessionContext = createContext<SessionValue>({
  user: null,
  accessToken: null,
  loading: false,
  refreshUser: async () => {},
  logout: async () => {},
  openAuthModal: () => {},
});

export const useSession = (): SessionValue => useContext(SessionContext);
