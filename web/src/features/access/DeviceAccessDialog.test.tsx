import type { AccessRules, Role, User } from '@hearth/contracts';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionContext, type SessionValue } from '../../shared/session/session-context.js';
import { ToastProvider } from '../../shared/toast/ToastProvider.js';
import DeviceAccessDialog from './DeviceAccessDialog.js';

const person = (id: string, role: Role, first: string): User => ({
  id,
  first_name: first,
  last_name: 'Test',
  user_name: id,
  name: `${first} Test`,
  email: `${id}@example.test`,
  role,
  email_confirmed: true,
  lockout_enabled: false,
  two_factor_enabled: false,
  profile_picture_url: null,
});
const admin = person('root', 'admin', 'Ada');
const resident = person('rita', 'resident', 'Rita');
const kid = person('kim', 'user', 'Kim');

let puts: { path: string; body: AccessRules }[];
let stored: Record<string, AccessRules>;
let refuse: string | null;

beforeEach(() => {
  puts = [];
  refuse = null;
  stored = {
    rita: { user_id: 'rita', rooms: {}, devices: { lamp: 'none' } },
    kim: { user_id: 'kim', rooms: { kids: 'view' }, devices: { radio: 'control' } },
  };
  vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
    const url = new URL(input);
    const reply = (status: number, data: unknown) => new Response(JSON.stringify(data), { status });
    if (url.pathname === '/api/auth/users')
      return reply(200, { users: [admin, resident, kid], page: 1, page_size: 100, total: 3, total_pages: 1 });
    const id = url.pathname.split('/').pop() as string;
    if (init.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as AccessRules;
      puts.push({ path: url.pathname, body });
      return refuse ? reply(400, { error: refuse }) : reply(200, body);
    }
    return reply(200, stored[id]);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(viewer: User, onClose = vi.fn()) {
  const session: SessionValue = {
    user: viewer,
    accessToken: 'token',
    loading: false,
    refreshUser: async () => {},
    logout: async () => {},
    openAuthModal: () => {},
  };
  render(
    <ToastProvider>
      <SessionContext.Provider value={session}>
        <DeviceAccessDialog deviceId="lamp" name="Desk lamp" roomId="kids" onClose={onClose} />
      </SessionContext.Provider>
    </ToastProvider>,
  );
  return onClose;
}

const select = (who: string) => screen.getByLabelText(`Access of ${who} to Desk lamp`) as HTMLSelectElement;
const shown = (element: HTMLSelectElement) => element.selectedOptions[0]?.textContent;

describe('the device access dialog (docs/screens.md#device-access)', () => {
  it("lists each person's exception, or what the room gives them", async () => {
    open(admin);
    const dialog = screen.getByRole('dialog', { name: 'Access to Desk lamp' });
    await within(dialog).findByLabelText('Access of Kim Test to Desk lamp');
    expect(shown(select('Kim Test'))).toBe('Same as room (View)');
    expect(shown(select('Rita Test'))).toBe('None');
    expect(within(dialog).queryByText('@root · admin')).toBeNull();
  });

  it('sets and removes the device entry, keeps the rest of the rules, closes with "Access saved"', async () => {
    const onClose = open(admin);
    await screen.findByLabelText('Access of Kim Test to Desk lamp');
    fireEvent.change(select('Kim Test'), { target: { value: 'control' } });
    fireEvent.change(select('Rita Test'), { target: { value: 'default' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Access saved');
    expect(puts).toEqual([
      {
        path: '/api/access/kim',
        body: { user_id: 'kim', rooms: { kids: 'view' }, devices: { radio: 'control', lamp: 'control' } },
      },
      { path: '/api/access/rita', body: { user_id: 'rita', rooms: {}, devices: {} } },
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it('shows a refusal beside the person and stays open', async () => {
    refuse = 'Unknown device: lamp';
    const onClose = open(resident);
    await screen.findByLabelText('Access of Kim Test to Desk lamp');
    expect(screen.queryByLabelText('Access of Rita Test to Desk lamp')).toBeNull();
    fireEvent.change(select('Kim Test'), { target: { value: 'none' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Unknown device: lamp');
    expect(onClose).not.toHaveBeenCalled();
    expect(shown(select('Kim Test'))).toBe('None');
  });
});
