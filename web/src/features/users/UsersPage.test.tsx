import type { User } from '@hearth/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import { testUser } from '../../shared/session/test-user.js';
import UsersPage from './UsersPage.js';

const admin = testUser('root', 'admin', { email_confirmed: true });
const resident = testUser('rita', 'resident');
const plain = testUser('uma', 'user');

let calls: FetchCall[];
let listReply: () => { status: number; body: unknown };
let rulesReply: () => { status: number; body: unknown };
let hold: Promise<void> | null;

beforeEach(() => {
  hold = null;
  listReply = () => ({
    status: 200,
    body: { users: [admin, resident, plain], page: 1, page_size: 20, total: 45, total_pages: 3 },
  });
  // Uma has an access rule: a role change asks whether to keep it.
  rulesReply = () => ({ status: 200, body: { user_id: 'uma', rooms: { den: 'view' }, devices: {} } });
  calls = stubFetch(async ({ path }) => {
    if (hold) await hold;
    if (path === '/api/auth/users') return listReply();
    if (path === '/api/access/uma') return rulesReply();
    return { body: {} };
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function renderPage(viewer: User | null) {
  renderSignedIn(<UsersPage />, viewer);
}

const listCalls = () => calls.filter((call) => call.path === '/api/auth/users');
const lastQuery = () => Object.fromEntries(listCalls().at(-1)?.url.searchParams ?? []);
const rowOf = (userName: string) => screen.getByText(`@${userName}`).closest('tr') as HTMLElement;

describe('Users page', () => {
  it('tells a plain user they may not view it, without asking the server', () => {
    renderPage(plain);
    expect(screen.getByText('You do not have permission to view this page.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows 6 skeleton rows during the first load, then the users and the total', async () => {
    let release!: () => void;
    hold = new Promise((resolve) => {
      release = resolve;
    });
    renderPage(admin);
    expect(document.querySelectorAll('.users-row--skeleton')).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Searching…' })).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(screen.getByText('@rita')).toBeTruthy());
    expect(document.querySelectorAll('.users-row--skeleton')).toHaveLength(0);
    expect(screen.getByText('Manage roles, lockouts, and search the directory · 45 total')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(lastQuery()).toEqual({ page: '1', page_size: '20' });
    const row = within(rowOf('root'));
    expect(row.getByText('Verified')).toBeTruthy();
    expect(row.getByText('Active')).toBeTruthy();
  });

  it('offers an admin every role and a resident only "resident"', async () => {
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    const options = (name: string) =>
      [...(screen.getByLabelText(`Role for ${name}`) as HTMLSelectElement).options]
        .filter((option) => !option.disabled)
        .map((option) => option.value);
    expect(options('uma')).toEqual(['user', 'resident', 'admin']);
    cleanup();

    renderPage(resident);
    await waitFor(() => screen.getByText('@uma'));
    expect(options('uma')).toEqual(['user', 'resident']);
    expect(screen.getByLabelText('Role for uma')).toHaveProperty('disabled', false);
    expect(screen.getByLabelText('Role for root')).toHaveProperty('disabled', true);
    expect(within(rowOf('root')).getByRole('button', { name: 'Lock' })).toHaveProperty('disabled', true);
  });

  it('goes back to page 1 when the page size or the search changes', async () => {
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery()).toEqual({ page: '2', page_size: '20' }));
    fireEvent.change(screen.getByLabelText('Users per page'), { target: { value: '50' } });
    await waitFor(() => expect(lastQuery()).toEqual({ page: '1', page_size: '50' }));
    // Next stays disabled while that page loads; a click before the answer would be lost.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery().page).toBe('2'));
    fireEvent.change(screen.getByPlaceholderText('Search by name or email...'), {
      target: { value: ' ada ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(lastQuery()).toEqual({ q: 'ada', page: '1', page_size: '50' }));
  });

  it('asks whether to keep the access rules, changes the role, shows "Role updated" for 2.5 s and reloads the list', async () => {
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    const before = listCalls().length;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(screen.getByLabelText('Role for uma'), { target: { value: 'resident' } });
    const dialog = await screen.findByRole('dialog', { name: 'Make uma a resident?' });
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset rules' }));
    await waitFor(() => expect(screen.getByText('Role updated')).toBeTruthy());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      url: new URL('http://localhost:3000/api/auth/users/uma'),
      body: { role: 'resident', reset_access: true },
    });
    await waitFor(() => expect(listCalls().length).toBe(before + 1));
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.queryByText('Role updated')).toBeNull();
  });

  it('keeps the rules with "Keep rules", and changes nothing on Cancel', async () => {
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    fireEvent.change(screen.getByLabelText('Role for uma'), { target: { value: 'admin' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((screen.getByLabelText('Role for uma') as HTMLSelectElement).value).toBe('user');
    fireEvent.change(screen.getByLabelText('Role for uma'), { target: { value: 'resident' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Keep rules' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
        role: 'resident',
        reset_access: false,
      }),
    );
    expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(1);
  });

  it('changes the role at once, with "Role updated", for a person without access rules (nothing to keep)', async () => {
    rulesReply = () => ({ status: 200, body: { user_id: 'uma', rooms: {}, devices: {} } });
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    fireEvent.change(screen.getByLabelText('Role for uma'), { target: { value: 'resident' } });
    await waitFor(() => expect(screen.getByText('Role updated')).toBeTruthy());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.method === 'PATCH')).toEqual([
      { method: 'PATCH', path: '/api/auth/users/uma', body: { role: 'resident', reset_access: false } },
    ]);
  });

  it('asks as before when the rules cannot be read', async () => {
    rulesReply = () => ({ status: 500, body: { error: 'boom' } });
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    fireEvent.change(screen.getByLabelText('Role for uma'), { target: { value: 'resident' } });
    await screen.findByRole('dialog', { name: 'Make uma a resident?' });
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('links to the access rules', async () => {
    renderPage(resident);
    expect(screen.getByRole('link', { name: 'Access rules' }).getAttribute('href')).toBe('/users/access');
  });

  it('reads "Saving…" while a lock is in flight, then "User locked"', async () => {
    renderPage(admin);
    await waitFor(() => screen.getByText('@uma'));
    let release!: () => void;
    hold = new Promise((resolve) => {
      release = resolve;
    });
    fireEvent.click(within(rowOf('uma')).getByRole('button', { name: 'Lock' }));
    expect(within(rowOf('uma')).getByRole('button', { name: 'Saving…' })).toBeTruthy();
    expect(calls.at(-1)?.body).toEqual({ lock: true });
    await act(async () => release());
    await waitFor(() => expect(screen.getByText('User locked')).toBeTruthy());
  });

  it('shows "Failed to fetch users" when the list cannot be loaded', async () => {
    listReply = () => ({ status: 500, body: { error: 'boom' } });
    renderPage(admin);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Failed to fetch users'));
  });
});
