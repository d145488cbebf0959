import type { AccessRules, Role, User } from '@hearth/contracts';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDevicesAccess } from './own-access.js';

const person = (id: string, role: Role) => ({ id, role, user_name: id }) as User;

let rules: Record<string, AccessRules>;
let asked: string[];

beforeEach(() => {
  asked = [];
  rules = {};
  vi.stubGlobal('fetch', async (input: URL) => {
    const id = new URL(input).pathname.split('/').pop() as string;
    asked.push(id);
    return new Response(JSON.stringify(rules[id] ?? { user_id: id, rooms: {}, devices: {} }), {
      status: 200,
    });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Probe({ user }: { user: User | null }) {
  const { loading, allowed } = useDevicesAccess(user);
  return <p>{loading ? 'loading' : allowed ? 'devices' : 'no devices'}</p>;
}

describe("a viewer's Devices entry (docs/screens.md#devices-for-a-user)", () => {
  it('is there for residents and admins without asking, and not when signed out', () => {
    render(<Probe user={person('rita', 'resident')} />);
    expect(screen.getByText('devices')).toBeTruthy();
    cleanup();
    render(<Probe user={null} />);
    expect(screen.getByText('no devices')).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it("follows a user's own rules: nothing at view or above, then a room at view", async () => {
    rules.kim = { user_id: 'kim', rooms: { office: 'none' }, devices: {} };
    render(<Probe user={person('kim', 'user')} />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('no devices')).toBeTruthy();
    rules.kim = { user_id: 'kim', rooms: { office: 'view' }, devices: {} };
    // Read again when the window gets the focus back.
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(await screen.findByText('devices')).toBeTruthy();
    expect(asked).toEqual(['kim', 'kim']);
  });

  it('counts a device rule too', async () => {
    rules.lee = { user_id: 'lee', rooms: {}, devices: { lamp: 'control' } };
    render(<Probe user={person('lee', 'user')} />);
    expect(await screen.findByText('devices')).toBeTruthy();
  });
});
