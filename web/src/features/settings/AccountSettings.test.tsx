import type { User } from '@hearth/contracts';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionContext, type SessionValue } from '../../shared/session/session-context.js';
import AccountSettings from './AccountSettings.js';

const ada: User = {
  id: 'u1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  user_name: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  role: 'admin',
  email_confirmed: false,
  lockout_enabled: false,
  two_factor_enabled: false,
  profile_picture_url: null,
};

type Reply = { status: number; body: unknown };
const LISTS = new Map<string, unknown>([
  ['/api/auth/sessions', { sessions: [] }],
  ['/api/auth/identities', { identities: [] }],
  ['/api/auth/oauth/providers', { providers: [] }],
  ['/api/auth/tokens', { tokens: [] }],
  ['/api/rooms', { rooms: [], floors: [] }],
]);
let replies: Record<string, Reply>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  replies = {};
  calls = [];
  vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
    const path = new URL(input).pathname;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    // The lists the Sessions and Sign-in methods cards load on opening are not the calls under test.
    if (LISTS.has(path) && !replies[path])
      return new Response(JSON.stringify(LISTS.get(path)), { status: 200 });
    calls.push({ method: init.method ?? 'GET', path, body });
    const reply = replies[path] ?? { status: 200, body: {} };
    return new Response(JSON.stringify(reply.body), { status: reply.status });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSettings(user: User = ada) {
  const onClose = vi.fn();
  const session: SessionValue = {
    user,
    accessToken: 'token',
    loading: false,
    refreshUser: vi.fn(async () => {}),
    logout: vi.fn(async () => {}),
    openAuthModal: vi.fn(),
  };
  render(
    <SessionContext.Provider value={session}>
      <AccountSettings open onClose={onClose} />
    </SessionContext.Provider>,
  );
  return { onClose, session };
}

const status = () => screen.getAllByRole('status')[0]?.textContent;

describe('Account Settings overlay', () => {
  it('is a labelled modal dialog that Escape closes', () => {
    const { onClose } = renderSettings();
    const dialog = screen.getByRole('dialog', { name: 'Account Settings' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('renders nothing while closed', () => {
    render(<AccountSettings open={false} onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the profile and the security state', () => {
    renderSettings();
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('ada@example.test')).toBeTruthy();
    expect(screen.getByText('Not Verified')).toBeTruthy();
    expect(screen.getByText('Disabled')).toBeTruthy();
    expect(screen.getByText('AL')).toBeTruthy();
  });

  it('refuses an empty name without calling the server', () => {
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    fireEvent.change(screen.getByLabelText('First Name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(status()).toBe('❌ First name and last name are required');
    expect(calls).toEqual([]);
  });

  it('saves the name, reports success and refreshes the user', async () => {
    const { session } = renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    fireEvent.change(screen.getByLabelText('First Name'), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(status()).toBe('Updating profile...');
    await waitFor(() => expect(status()).toBe('✅ Profile updated successfully!'));
    expect(calls).toEqual([
      { method: 'PATCH', path: '/api/auth/users/u1', body: { first_name: 'Augusta', last_name: 'Lovelace' } },
    ]);
    expect(session.refreshUser).toHaveBeenCalledOnce();
    expect(screen.queryByLabelText('First Name')).toBeNull();
  });

  it('walks e-mail verification through Code Sent with Confirm disabled while the code is empty', async () => {
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
    await waitFor(() => expect(status()).toBe('Check your email for the code.'));
    expect(screen.getByRole('button', { name: 'Code Sent' })).toHaveProperty('disabled', true);
    const confirm = screen.getByRole('button', { name: 'Confirm Email' });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Verification Code'), { target: { value: '123456' } });
    expect(confirm).toHaveProperty('disabled', false);
    replies['/api/auth/email/verify/confirm'] = { status: 400, body: { error: 'Invalid or expired code' } };
    fireEvent.click(confirm);
    await waitFor(() => expect(status()).toBe('❌ Invalid or expired code'));
    replies['/api/auth/email/verify/confirm'] = { status: 200, body: {} };
    fireEvent.click(confirm);
    await waitFor(() => expect(status()).toBe('✅ Email verified successfully!'));
    expect(screen.getByRole('button', { name: 'Email Verified' })).toHaveProperty('disabled', true);
    expect(calls.map((call) => call.body)).toEqual([
      { user_id: 'u1' },
      { user_id: 'u1', code: '123456' },
      { user_id: 'u1', code: '123456' },
    ]);
  });

  it('shows the plain fallback when the verification request fails without a reason', async () => {
    replies['/api/auth/email/verify/request'] = { status: 502, body: {} };
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
    await waitFor(() => expect(status()).toBe('Failed to request email verification'));
    expect(screen.getByRole('button', { name: 'Verify Email' })).toHaveProperty('disabled', false);
  });

  // Issue 11, "Also": right after sign-up the mailed code's cooldown runs; that is no failure.
  it('says a code is already on its way, in a neutral tone, when the resend cooldown runs', async () => {
    replies['/api/auth/email/verify/request'] = {
      status: 429,
      body: { error: 'Please wait 16s before requesting another code', retry_after: 16 },
    };
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
    await waitFor(() =>
      expect(status()).toBe(
        'A code was already sent to your e-mail; enter it below, or request a new one in 16s',
      ),
    );
    expect(screen.getAllByRole('status')[0]?.className).toContain('settings-status--info');
    expect(screen.getByLabelText('Verification Code')).toBeTruthy();
  });

  it('lists the sessions and signs out one, or all others (issue 11 item 4)', async () => {
    const session = (id: string, current: boolean, browser: string) => ({
      id,
      browser,
      device: 'Desktop',
      ip: '192.0.2.1',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: '2026-01-01T00:00:00.000Z',
      current,
    });
    replies['/api/auth/sessions'] = {
      status: 200,
      body: {
        sessions: [session('s1', true, 'Chrome on Linux'), session('s2', false, 'Firefox on Android')],
      },
    };
    renderSettings();
    await screen.findByText(/Firefox on Android/);
    expect(screen.getByText('This device')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(status()).toBe('Session signed out'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out of all other sessions' }));
    await waitFor(() => expect(status()).toBe('Signed out of all other sessions'));
    expect(
      calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`),
    ).toEqual(['DELETE /api/auth/sessions/s2', 'POST /api/auth/sessions/revoke-others']);
  });

  it('enables 2FA in two steps', async () => {
    // Only a verified address gets the codes (issue 34): this account has verified its own.
    renderSettings({ ...ada, email_confirmed: true });
    fireEvent.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    await waitFor(() => expect(status()).toBe('Check your email for the 2FA code.'));
    expect(calls[0]).toEqual({ method: 'POST', path: '/api/auth/2fa/email/setup', body: { user_id: 'u1' } });
    const confirm = screen.getByRole('button', { name: 'Enable 2FA' });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('2FA Code'), { target: { value: '654321' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(status()).toBe('✅ 2FA enabled successfully!'));
    expect(screen.getByRole('button', { name: '2FA Enabled' })).toBeTruthy();
  });

  it('will not turn on 2FA while the address is unverified, and says why', () => {
    renderSettings();
    const enable = screen.getByRole('button', { name: 'Enable 2FA' });
    expect(enable).toHaveProperty('disabled', true);
    expect(enable.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(enable.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Verify your email address first: the 2FA codes are sent to it.',
    );
    expect(calls).toEqual([]);
  });

  it('turns 2FA off after asking for the password, showing a refusal in the password dialog', async () => {
    const { session } = renderSettings({ ...ada, email_confirmed: true, two_factor_enabled: true });
    expect(screen.getByRole('button', { name: '2FA Enabled' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Turn off 2FA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication' });
    const confirm = () => within(dialog).getByRole('button', { name: 'Turn off 2FA' });
    fireEvent.click(confirm());
    expect(within(dialog).getByRole('alert').textContent).toBe('Password is required');
    expect(calls).toEqual([]);

    replies['/api/auth/2fa/disable'] = { status: 400, body: { error: 'Current password is incorrect' } };
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'wrong-one' } });
    fireEvent.click(confirm());
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe('Current password is incorrect'),
    );

    replies['/api/auth/2fa/disable'] = { status: 200, body: { message: '2FA disabled' } };
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Hearth-ada-pass' } });
    fireEvent.click(confirm());
    await waitFor(() => expect(status()).toBe('2FA turned off'));
    expect(screen.queryByRole('dialog', { name: 'Turn off two-factor authentication' })).toBeNull();
    expect(calls.map((call) => [call.path, call.body])).toEqual([
      ['/api/auth/2fa/disable', { password: 'wrong-one' }],
      ['/api/auth/2fa/disable', { password: 'Hearth-ada-pass' }],
    ]);
    expect(session.refreshUser).toHaveBeenCalled();
  });

  it('validates the password change, then shows a password rule from the server as is', async () => {
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByRole('button', { name: 'Cancel Password Change' })).toBeTruthy();
    const fill = (current: string, next: string, confirm: string) => {
      fireEvent.change(screen.getByLabelText('Current Password'), { target: { value: current } });
      fireEvent.change(screen.getByLabelText('New Password'), { target: { value: next } });
      fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: confirm } });
      fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    };
    fill('old-password', 'short', 'short');
    expect(status()).toBe('❌ New password must be at least 8 characters');
    fill('old-password', 'new-password-1', 'new-password-2');
    expect(status()).toBe('❌ New passwords do not match');
    expect(calls).toEqual([]);
    replies['/api/auth/password/change'] = { status: 400, body: { error: 'Password is too common' } };
    fill('old-password', 'password123', 'password123');
    await waitFor(() => expect(status()).toBe('Password is too common'));
    expect(calls[0]?.body).toEqual({ current_password: 'old-password', new_password: 'password123' });
  });

  it('keeps this session on the fresh token pair a password change answers with', async () => {
    replies['/api/auth/password/change'] = {
      status: 200,
      body: { message: 'Password updated', access_token: 'access-2', refresh_token: 'refresh-2' },
    };
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    fireEvent.change(screen.getByLabelText('Current Password'), { target: { value: 'old-password' } });
    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: 'new-password' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'new-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(status()).toBe('✅ Password updated successfully!'));
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeTruthy();
    expect(screen.queryByLabelText('Current Password')).toBeNull();
  });
});

describe('Change Profile Picture modal', () => {
  const openModal = () => {
    renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Change Photo' }));
    return screen.getByRole('dialog', { name: 'Change Profile Picture' });
  };
  const choose = (dialog: HTMLElement, file: File) => {
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe('image/*');
    fireEvent.change(input, { target: { files: [file] } });
  };
  const modalStatus = (dialog: HTMLElement) => dialog.querySelector('[role="status"]')?.textContent;

  it('asks for a file first, refuses non-images and files over 5 MB', () => {
    const dialog = openModal();
    expect(screen.getByText('Upload your own image (max 5MB)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(modalStatus(dialog)).toBe('❌ Please select a file first');
    choose(dialog, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(modalStatus(dialog)).toBe('❌ Please select an image file');
    choose(dialog, new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
    expect(modalStatus(dialog)).toBe('❌ File too large (max 5MB)');
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(modalStatus(dialog)).toBe('❌ Please select a file first');
    expect(calls).toEqual([]);
  });

  it('uploads the chosen image as multipart field "file" and reports success in the overlay', async () => {
    const dialog = openModal();
    choose(dialog, new File([new Uint8Array(10)], 'me.png', { type: 'image/png' }));
    expect(screen.getByText('me.png')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change Profile Picture' })).toBeNull());
    expect(status()).toBe('✅ Profile picture updated successfully!');
    expect(calls[0]?.path).toBe('/api/auth/profile/upload');
    expect((calls[0]!.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('shows the server error when avatar generation fails, and Escape closes only the modal', async () => {
    replies['/api/auth/profile/generate-avatar'] = { status: 500, body: {} };
    const dialog = openModal();
    fireEvent.click(screen.getByRole('button', { name: '🎨 Generate Pixel Avatar' }));
    await waitFor(() => expect(modalStatus(dialog)).toBe('❌ Avatar generation failed'));
    act(() => {
      fireEvent.keyDown(dialog, { key: 'Escape' });
    });
    expect(screen.queryByRole('dialog', { name: 'Change Profile Picture' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Account Settings' })).toBeTruthy();
  });
});
