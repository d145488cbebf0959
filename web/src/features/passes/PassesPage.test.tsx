import type { Pass, PassInfo, Role, User } from '@hearth/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import { testUser } from '../../shared/session/test-user.js';
import PassesPage from './PassesPage.js';
import PassPage from './PassPage.js';
import { testPassInfo } from './test-pass.js';

const person = (id: string, role: Role) => testUser(id, role, { first_name: id, email_confirmed: true });

const pass = (fields: Partial<Pass>): Pass => ({
  id: 'p1',
  label: 'Cleaner',
  level: 'control',
  rooms: [],
  devices: ['lamp'],
  starts_at: null,
  ends_at: '2026-11-29T18:00:00.000Z',
  schedule: null,
  paused: false,
  status: 'active',
  next_start: null,
  created_at: '2026-11-27T10:00:00.000Z',
  created_by: { id: 'root', label: 'Root Test' },
  ...fields,
});

let calls: FetchCall[];
let replies: Record<string, { status: number; body: unknown }>;

beforeEach(() => {
  replies = {
    'GET /api/passes': {
      status: 200,
      body: {
        passes: [pass({}), pass({ id: 'p2', label: null, status: 'expired', devices: [], rooms: ['hall'] })],
        time_zone: 'Europe/Berlin',
      },
    },
    'GET /api/rooms': { status: 200, body: { rooms: [{ id: 'hall', name: 'Hall' }], floors: [] } },
    'GET /api/devicehub/devices': { status: 200, body: [{ id: 'lamp', name: 'Desk lamp' }] },
    'PATCH /api/passes/p1': { status: 200, body: pass({ paused: true, status: 'paused' }) },
    'DELETE /api/passes/p1': { status: 204, body: null },
  };
  calls = stubFetch(
    ({ method, path }) => replies[`${method} ${path}`] ?? { status: 404, body: { error: 'Not found' } },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderManagers(viewer: User) {
  renderSignedIn(<PassesPage />, viewer);
}

describe('Guest passes page', () => {
  it('tells a plain user they may not view it, without asking the server', () => {
    renderManagers(person('uma', 'user'));
    expect(screen.getByText('You do not have permission to view this page.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('lists passes with status, level, what they cover and when, in the household zone', async () => {
    renderManagers(person('rita', 'resident'));
    const row = (await screen.findByRole('heading', { name: 'Cleaner' })).closest('li') as HTMLElement;
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('View and control')).toBeTruthy();
    await waitFor(() => expect(within(row).getByText('Desk lamp')).toBeTruthy());
    expect(within(row).getByText('until Sun 29 Nov, 19:00')).toBeTruthy();
    expect(screen.getByText('Times are in Europe/Berlin')).toBeTruthy();
    const expired = screen.getByRole('heading', { name: 'Guest pass' }).closest('li') as HTMLElement;
    expect(within(expired).getByText('Expired')).toBeTruthy();
    // An expired pass can only be revoked.
    expect(within(expired).queryByRole('button', { name: /^Pause/ })).toBeNull();
  });

  it('pauses a pass and revokes it after confirming', async () => {
    renderManagers(person('root', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Pause Cleaner' }));
    await screen.findByRole('button', { name: 'Resume Cleaner' });
    expect(calls.find((c) => c.method === 'PATCH')).toEqual({
      method: 'PATCH',
      path: '/api/passes/p1',
      body: { paused: true },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Cleaner' }));
    const confirm = screen.getByRole('dialog', { name: 'Revoke this pass?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Cleaner' })).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/passes/p1')).toBe(true);
  });

  it('asks for a room or a device before sending a new pass', async () => {
    renderManagers(person('root', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'New pass' }));
    const dialog = screen.getByRole('dialog', { name: 'New guest pass' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create pass' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose at least one room or device');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('asks for an end within a year when the weekly windows cover the whole week', async () => {
    renderManagers(person('root', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'New pass' }));
    const dialog = screen.getByRole('dialog', { name: 'New guest pass' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Desk lamp' }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Weekly schedule' }));
    fireEvent.change(within(dialog).getByLabelText('Ends (optional)'), { target: { value: '' } });
    for (const day of ['Mon', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) {
      fireEvent.click(within(dialog).getByRole('checkbox', { name: day }));
    }
    const wholeWeek = 'These windows cover the whole week, so the pass needs an end within a year.';
    expect(within(dialog).queryByText(wholeWeek)).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '00:00' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '00:00' } });
    expect(within(dialog).getByText(wholeWeek)).toBeTruthy();
    const ends = within(dialog).getByLabelText('Ends');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create pass' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose an end within a year of the start');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(ends, { target: { value: '2099-01-01T00:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create pass' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose an end within a year of the start');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("shows when a scheduled pass next starts, in the household's zone (at a clock change too)", async () => {
    replies['GET /api/passes'] = {
      status: 200,
      body: {
        passes: [
          pass({
            status: 'scheduled',
            ends_at: null,
            schedule: [{ days: ['sun'], from: '02:00', to: '02:30' }],
            // Sunday 29 March 2026: Berlin's clock jumps from 02:00 to 03:00, and the window opens then.
            next_start: '2026-03-29T01:00:00.000Z',
          }),
        ],
        time_zone: 'Europe/Berlin',
      },
    };
    renderManagers(person('rita', 'resident'));
    const row = (await screen.findByRole('heading', { name: 'Cleaner' })).closest('li') as HTMLElement;
    expect(within(row).getByText('Scheduled')).toBeTruthy();
    expect(within(row).getByText('Next start').nextSibling?.textContent).toBe('Sun 29 Mar, 03:00');
  });
});

describe("the guest's page", () => {
  const info = (fields: Partial<PassInfo>) => testPassInfo({ label: 'Weekend guest', ...fields });
  const renderGuest = () =>
    render(
      <MemoryRouter initialEntries={['/pass/tok']}>
        <Routes>
          <Route path="/pass/:token" element={<PassPage />} />
        </Routes>
      </MemoryRouter>,
    );

  it.each([
    [
      { status: 404, body: { error: 'Pass not found' } },
      'This link does not work. It may have been revoked or mistyped.',
    ],
    [
      { status: 200, body: info({ status: 'paused' }) },
      'This pass is paused. Ask the person who shared it with you to resume it.',
    ],
    [{ status: 200, body: info({ status: 'expired' }) }, 'This pass has ended.'],
    [
      // Outside its hours until Berlin's clock jumps to 03:00 on 29 March 2026.
      {
        status: 200,
        body: info({
          status: 'scheduled',
          next_start: '2026-03-29T01:00:00.000Z',
          time_zone: 'Europe/Berlin',
        }),
      },
      'This pass works only at set times. It works again Sun 29 Mar, 03:00.',
    ],
    [
      { status: 429, body: { error: 'Too many requests, please try again later' } },
      'Too many attempts. Try again in a minute.',
    ],
  ])('answers %j with a clear message and no devices', async (reply, message) => {
    replies['GET /api/pass/tok'] = reply;
    renderGuest();
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(document.querySelector('.device-tile')).toBeNull();
    expect(calls.some((c) => c.path === '/api/pass/tok/devices')).toBe(false);
  });
});
