import type { AccessRules, User } from '@hearth/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import AccessPage from './AccessPage.js';
import { admin, kid, resident, usersPage } from './test-people.js';

let calls: FetchCall[];
let stored: Record<string, AccessRules>;
let refuse: Record<string, string>;

beforeEach(() => {
  refuse = {};
  stored = {
    rita: { user_id: 'rita', rooms: { office: 'none' }, devices: {} },
    kim: { user_id: 'kim', rooms: { kids: 'control' }, devices: { lamp: 'view' } },
  };
  calls = stubFetch(({ method, path, body }) => {
    if (path === '/api/auth/users') return { body: usersPage };
    if (path === '/api/rooms')
      return {
        body: {
          rooms: [
            { id: 'kids', name: 'Kids room', icon: 'baby', order: 0, floor_id: 'up' },
            { id: 'office', name: 'Office', icon: 'laptop', order: 1, floor_id: null },
          ],
          floors: [{ id: 'up', name: 'Upstairs', order: 0 }],
        },
      };
    const id = path.split('/').pop() as string;
    if (method === 'PUT') {
      if (refuse[id]) return { status: 403, body: { error: refuse[id] } };
      stored[id] = body as AccessRules;
      return { body };
    }
    return { body: stored[id] ?? { user_id: id, rooms: {}, devices: {} } };
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(viewer: User | null) {
  renderSignedIn(<AccessPage />, viewer);
}

const cell = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const shownOption = (select: HTMLSelectElement) => select.selectedOptions[0]?.textContent;

describe('Access rules page (docs/screens.md#access-rules)', () => {
  it('tells a plain user they may not view it, without asking the server', () => {
    renderPage(kid);
    expect(screen.getByText('You do not have permission to view this page.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it("shows an admin the residents' and users' rules by room under their floors, defaults named", async () => {
    renderPage(admin);
    await screen.findByLabelText('Kim Test in Kids room');
    expect(screen.queryByText('@root · admin')).toBeNull();
    expect(screen.getByText('@rita · resident')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Upstairs' }).getAttribute('colspan')).toBe('1');
    expect(screen.getByRole('columnheader', { name: 'Without a floor' })).toBeTruthy();
    expect(shownOption(cell('Kim Test in Kids room'))).toBe('Control');
    expect(shownOption(cell('Kim Test in Office'))).toBe('Default (None)');
    expect(shownOption(cell('Rita Test in Kids room'))).toBe('Default (Control)');
    expect(shownOption(cell('Rita Test in Office'))).toBe('None');
    expect(screen.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
  });

  it('saves one PUT per changed person with their device rules kept, then says so', async () => {
    renderPage(admin);
    await screen.findByLabelText('Kim Test in Office');
    fireEvent.change(cell('Kim Test in Office'), { target: { value: 'view' } });
    fireEvent.change(cell('Kim Test in Kids room'), { target: { value: 'default' } });
    fireEvent.change(cell('Rita Test in Office'), { target: { value: 'default' } });
    expect(screen.getByText('3 unsaved changes')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Access rules saved');
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([
      {
        method: 'PUT',
        path: '/api/access/kim',
        body: { user_id: 'kim', rooms: { office: 'view' }, devices: { lamp: 'view' } },
      },
      { method: 'PUT', path: '/api/access/rita', body: { user_id: 'rita', rooms: {}, devices: {} } },
    ]);
    expect(shownOption(cell('Kim Test in Office'))).toBe('View');
    expect(screen.queryByText(/unsaved/)).toBeNull();
  });

  it("shows a refusal under that person's name and keeps their changes; the others are saved", async () => {
    refuse.rita = 'Residents may only change the access of user accounts';
    renderPage(admin);
    await screen.findByLabelText('Kim Test in Office');
    fireEvent.change(cell('Kim Test in Office'), { target: { value: 'control' } });
    fireEvent.change(cell('Rita Test in Kids room'), { target: { value: 'view' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const row = (await screen.findByText(refuse.rita)).closest('tr') as HTMLElement;
    expect(within(row).getByText('@rita · resident')).toBeTruthy();
    expect(cell('Rita Test in Kids room').getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('1 unsaved change')).toBeTruthy();
    expect(screen.queryByText('Access rules saved')).toBeNull();
    expect(stored.kim?.rooms).toEqual({ kids: 'control', office: 'control' });
  });

  it('shows a resident only the user accounts', async () => {
    renderPage(resident);
    await screen.findByLabelText('Kim Test in Office');
    expect(screen.getByText('As a resident you set the rules of user accounts.')).toBeTruthy();
    expect(screen.queryByText('@rita · resident')).toBeNull();
    expect(calls.filter((call) => call.path.startsWith('/api/access/')).map((call) => call.path)).toEqual([
      '/api/access/kim',
    ]);
  });

  it('asks before the page is left with unsaved changes, and discards them', async () => {
    renderPage(admin);
    await screen.findByLabelText('Kim Test in Office');
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);
    fireEvent.change(cell('Kim Test in Office'), { target: { value: 'control' } });
    expect(leave()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(shownOption(cell('Kim Test in Office'))).toBe('Default (None)');
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    expect(leave()).toBe(false);
  });
});
