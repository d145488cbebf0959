import type { ApiToken } from '@hearth/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import { testUser } from '../../shared/session/test-user.js';
import { ApiTokensCard } from './ApiTokensCard.js';

const ada = testUser('u1', 'admin');
const token = (fields: Partial<ApiToken>): ApiToken => ({
  id: 't1',
  name: 'Heating cron',
  scope: 'control',
  rooms: [],
  devices: [],
  created_at: '2026-06-01T12:00:00.000Z',
  expires_at: null,
  last_used_at: null,
  last_used_ip: null,
  owner: { id: 'u1', label: 'Ada Lovelace' },
  ...fields,
});
const action = { setStatus: vi.fn() } as never;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Settings → API tokens', () => {
  it("lists tokens (others' with their owner), creates one shown once with Copy, and revokes", async () => {
    let tokens = [
      token({}),
      token({ id: 't2', name: 'Node-RED', scope: 'read', owner: { id: 'u2', label: 'Bo' } }),
    ];
    const calls = stubFetch((call) => {
      if (call.path === '/api/rooms') return { body: { rooms: [{ id: 'r1', name: 'Hall' }], floors: [] } };
      if (call.path === '/api/auth/tokens' && call.method === 'GET') return { body: { tokens } };
      if (call.method === 'POST') {
        tokens = [token({ id: 't3', name: 'Deck' }), ...tokens];
        return { status: 201, body: { ...tokens[0], token: `hearth_${'a'.repeat(40)}` } };
      }
      tokens = tokens.filter((each) => each.id !== 't2');
      return { status: 204 };
    });
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    renderSignedIn(<ApiTokensCard action={action} />, ada);
    const list = await screen.findByRole('list', { name: 'API tokens' });
    expect(within(list).getByText('Owner: Bo')).toBeTruthy();
    expect(within(list).getAllByText(/Never used · Never expires/)).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'New token' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Deck' } });
    fireEvent.change(screen.getByLabelText('Access'), { target: { value: 'control' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Hall' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const secret = (await screen.findByLabelText('Token')) as HTMLInputElement;
    expect(secret.value).toBe(`hearth_${'a'.repeat(40)}`);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Deck',
      expires_in: '90d',
      scope: 'control',
      rooms: ['r1'],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    await screen.findByText('Token copied');
    expect(writeText).toHaveBeenCalledWith(`hearth_${'a'.repeat(40)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Token')).toBeNull();
    await screen.findByText('Deck');

    fireEvent.click(screen.getByRole('button', { name: 'Revoke Node-RED' }));
    await waitFor(() => expect(screen.queryByText('Node-RED')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/auth/tokens/t2')).toBe(true);
  });

  it("shows the server's refusal in the dialog", async () => {
    stubFetch((call) =>
      call.method === 'POST'
        ? { status: 400, body: { error: 'Name is required' } }
        : { body: call.path === '/api/rooms' ? { rooms: [], floors: [] } : { tokens: [] } },
    );
    renderSignedIn(<ApiTokensCard action={action} />, ada);
    await screen.findByText('No API tokens yet');
    fireEvent.click(screen.getByRole('button', { name: 'New token' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Name is required');
  });
});
