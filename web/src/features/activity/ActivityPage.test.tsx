import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { SessionContext } from '../../shared/session/session-context.js';
import { testSession, testUser } from '../../shared/session/test-user.js';
import ActivityPage from './ActivityPage.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const entry = {
  id: 'e1',
  at: new Date().toISOString(),
  actor: { type: 'user', id: 'ada', label: 'Ada' },
  kind: 'device.command',
  device_id: 'lamp-1',
  detail: { name: 'Lamp', state: { on: true } },
  result: 'ok',
};

let navigate: (to: string) => void = () => {};
function Navigator() {
  navigate = useNavigate();
  return null;
}

describe('the Activity page (docs/activity.md#page)', () => {
  it("asks for the device list only once the first entries have arrived, and once whatever the filters' changes", async () => {
    let answerEntries: () => void = () => {};
    const calls: FetchCall[] = stubFetch(async (call) => {
      if (call.path === '/api/activity') {
        // The first page answers when the test says; later ones at once.
        if (calls.filter((c) => c.path === '/api/activity').length === 1)
          await new Promise<void>((resolve) => (answerEntries = resolve));
        return { body: { entries: [entry], next_cursor: null } };
      }
      if (call.path === '/api/devicehub/devices') return { body: [{ id: 'lamp-1', name: 'Desk lamp' }] };
      if (call.path === '/api/auth/users') return { body: { users: [] } };
      return { body: { rooms: [], floors: [] } };
    });
    const asked = (path: string) => calls.filter((call) => call.path === path).length;
    render(
      <SessionContext.Provider value={testSession(testUser('ada', 'admin'))}>
        <MemoryRouter initialEntries={['/activity']}>
          <ActivityPage />
          <Navigator />
        </MemoryRouter>
      </SessionContext.Provider>,
    );
    await act(async () => {});
    expect(asked('/api/activity')).toBe(1);
    expect(asked('/api/auth/users')).toBe(1);
    expect(asked('/api/devicehub/devices')).toBe(0);

    await act(async () => answerEntries());
    // The entry names its device from its own detail, then by the device's name now.
    await vi.waitFor(() =>
      expect(document.querySelector('.activity-entry')?.textContent).toContain('Desk lamp'),
    );
    expect(asked('/api/devicehub/devices')).toBe(1);

    await act(async () => navigate('/activity?kind=device.command'));
    await act(async () => {});
    expect(asked('/api/activity')).toBe(2);
    expect(asked('/api/devicehub/devices')).toBe(1);
  });
});
