import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type FetchCall, type FetchReply, stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import { testUser } from '../../shared/session/test-user.js';
import { SignInMethods } from './SignInMethods.js';
import { type Status, useAccountAction } from './use-account-action.js';

afterEach(() => {
  cleanup();
});

const PROVIDERS = { providers: [{ id: 'testidp', name: 'Testidp' }] };
const NEEDS_PASSWORD = { error: 'Enter your password to connect Testidp', reauth: 'password' };

/** The card with its status line, as Account Settings shows it. */
function Card() {
  const action = useAccountAction();
  const status = action.status as Status | null;
  return (
    <>
      <p data-testid="status">{status?.text}</p>
      <SignInMethods action={action} />
    </>
  );
}

/** The server: the lists, then `connects` and `reauths` answered in order. */
function serve(connects: FetchReply[], reauths: FetchReply[] = []): FetchCall[] {
  return stubFetch((call) => {
    if (call.path === '/api/auth/oauth/providers') return { body: PROVIDERS };
    if (call.path === '/api/auth/identities') return { body: { identities: [] } };
    if (call.path === '/api/auth/me') return { body: testUser('ada', 'admin') };
    if (call.path.endsWith('/connect')) return connects.shift() ?? { status: 500, body: {} };
    if (call.path === '/api/auth/reauth') return reauths.shift() ?? { status: 500, body: {} };
    return { status: 404, body: {} };
  });
}
const posts = (calls: FetchCall[]) =>
  calls.filter((call) => call.method === 'POST').map((call) => [call.path, call.body]);

describe('Settings → Sign-in methods: Connect {provider} (issue 32 item 12)', () => {
  it('asks for the password when the server wants a recent sign-in, confirms it, then connects', async () => {
    const calls = serve(
      [
        { status: 403, body: NEEDS_PASSWORD },
        { status: 502, body: { error: 'Testidp is not reachable' } },
      ],
      [
        { status: 400, body: { error: 'Current password is incorrect' } },
        { body: { message: 'Password confirmed' } },
      ],
    );
    renderSignedIn(<Card />, testUser('ada', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Testidp' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(within(dialog).getByText('Enter your password to connect Testidp')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Password is required');

    const password = within(dialog).getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'wrong one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe('Current password is incorrect'),
    );

    fireEvent.change(password, { target: { value: 'the right one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The connect went on after the password (here the provider is down: its refusal shows).
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('Testidp is not reachable'));
    expect(posts(calls)).toEqual([
      ['/api/auth/oauth/testidp/connect', {}],
      ['/api/auth/reauth', { password: 'wrong one' }],
      ['/api/auth/reauth', { password: 'the right one' }],
      ['/api/auth/oauth/testidp/connect', {}],
    ]);
  });

  it('asks nothing more when Cancel is pressed', async () => {
    const calls = serve([{ status: 403, body: NEEDS_PASSWORD }]);
    renderSignedIn(<Card />, testUser('ada', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Testidp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts(calls)).toEqual([['/api/auth/oauth/testidp/connect', {}]]);
  });

  it('shows the server’s word when only a new sign-in will do (an account without a password)', async () => {
    serve([{ status: 403, body: { error: 'Sign in again to connect Testidp', reauth: 'sign_in' } }]);
    renderSignedIn(<Card />, testUser('ada', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Testidp' }));
    await waitFor(() =>
      expect(screen.getByTestId('status').textContent).toBe('Sign in again to connect Testidp'),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
