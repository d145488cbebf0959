import type { AccessRules, User } from '@hearth/contracts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import DeviceAccessDialog from './DeviceAccessDialog.js';
import { admin, resident, usersPage } from './test-people.js';

let calls: FetchCall[];
let stored: Record<string, AccessRules>;
let refuse: string | null;

beforeEach(() => {
  refuse = null;
  stored = {
    rita: { user_id: 'rita', rooms: {}, devices: { lamp: 'none' } },
    kim: { user_id: 'kim', rooms: { kids: 'view' }, devices: { radio: 'control' } },
  };
  calls = stubFetch(({ method, path, body }) => {
    if (path === '/api/auth/users') return { body: usersPage };
    if (method === 'PUT') return refuse ? { status: 400, body: { error: refuse } } : { body };
    return { body: stored[path.split('/').pop() as string] };
  });
});
/** The rules the dialog saved, in order. */
const puts = () => calls.filter((call) => call.method === 'PUT').map(({ path, body }) => ({ path, body }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(viewer: User, onClose = vi.fn()) {
  renderSignedIn(
    <DeviceAccessDialog deviceId="lamp" name="Desk lamp" roomId="kids" onClose={onClose} />,
    viewer,
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
    expect(puts()).toEqual([
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
