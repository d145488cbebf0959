import type { Role } from '@hearth/contracts';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../../shared/api/test-fetch.js';
import { SessionContext } from '../../../shared/session/session-context.js';
import { testSession, testUser } from '../../../shared/session/test-user.js';
import { BusDelayNotice } from './BusDelayNotice.js';

const person = (role: Role) => testUser(role, role, { first_name: role, email_confirmed: true });

let status: Record<string, unknown>;
let calls: FetchCall[];
beforeEach(() => {
  status = {
    bus: 'online',
    since: '2026-01-05T09:00:00.000Z',
    bus_round_trip_ms: 43.6,
    bus_delay_warning: true,
  };
  // The server answers residents without the probe's fields; the component must not ask anyway.
  calls = stubFetch(() => ({ body: status }));
});
const paths = () => calls.map((call) => call.path);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAs(role: Role) {
  render(
    <SessionContext.Provider value={testSession(person(role))}>
      <BusDelayNotice />
    </SessionContext.Provider>,
  );
}

const NOTICE =
  'The MQTT broker holds messages back (44 ms per round trip). With Mosquitto, add "set_tcp_nodelay true" to its configuration.';

describe('the slow-broker notice on the Devices page', () => {
  it('tells an admin that the broker holds messages back, naming the setting', async () => {
    renderAs('admin');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(NOTICE));
    expect(paths()).toEqual(['/api/devicehub/status']);
  });

  it('says nothing to an admin when the broker sends at once', async () => {
    status = { ...status, bus_round_trip_ms: 1.2, bus_delay_warning: false };
    renderAs('admin');
    await waitFor(() => expect(paths()).toEqual(['/api/devicehub/status']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing to a resident, who cannot change the broker', async () => {
    renderAs('resident');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('status')).toBeNull();
    expect(paths()).toEqual([]);
  });
});
