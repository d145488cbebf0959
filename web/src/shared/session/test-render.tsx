import type { User } from '@hearth/contracts';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { ToastProvider } from '../toast/ToastProvider.js';
import { SessionContext } from './session-context.js';
import { testSession } from './test-user.js';

/** Renders `ui` for a component test as the app shows it: under a router, the toasts and `user`'s session. */
export const renderSignedIn = (ui: ReactElement, user: User | null) =>
  render(
    <MemoryRouter>
      <ToastProvider>
        <SessionContext.Provider value={testSession(user)}>{ui}</SessionContext.Provider>
      </ToastProvider>
    </MemoryRouter>,
  );
