import type { SourceStatus } from '@hearth/contracts';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import { testUser } from '../../shared/session/test-user.js';
import SourcesPage from './SourcesPage.js';

const ghost = 'homeassistant/switch/ghost/config';
const source = (change: Partial<SourceStatus> & Pick<SourceStatus, 'protocol' | 'name'>): SourceStatus => ({
  enabled: true,
  topics: [],
  devices: 0,
  last_message: null,
  rejected: [],
  forgets: true,
  ...change,
});
let list: SourceStatus[];
let calls: FetchCall[];

beforeEach(() => {
  list = [
    source({
      protocol: 'zigbee',
      name: 'Zigbee2MQTT',
      topics: ['zigbee2mqtt'],
      devices: 12,
      forgets: false,
      last_message: new Date().toISOString(),
    }),
    source({
      protocol: 'homeassistant',
      name: 'Home Assistant',
      topics: ['homeassistant'],
      devices: 3,
      rejected: [
        {
          topic: ghost,
          reason: 'availability must be a list of {topic, …}',
          at: new Date().toISOString(),
          forget: ghost,
        },
      ],
    }),
    source({ protocol: 'tasmota', name: 'Tasmota', enabled: false }),
    source({ protocol: 'shelly', name: 'Shelly', topics: ['+'] }),
  ];
  calls = stubFetch(({ method, path, body }) => {
    if (method === 'POST' && path === '/api/devicehub/sources/homeassistant/forget') {
      const { topic } = body as { topic: string };
      if (!topic.startsWith('homeassistant/'))
        return { status: 400, body: { error: 'Not a retained config topic of this source' } };
      list = list.map((each) => ({ ...each, rejected: each.rejected.filter((r) => r.forget !== topic) }));
      return { body: { protocol: 'homeassistant', topic } };
    }
    return { body: list };
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const card = (name: string) => screen.getByRole('article', { name });

describe('Sources page (docs/screens.md#sources)', () => {
  it('is for admins only, without asking the server', () => {
    renderSignedIn(<SourcesPage />, testUser('rita', 'resident'));
    expect(screen.getByText('You do not have permission to view this page.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows each source on or off, its devices, last message and what it reads', async () => {
    renderSignedIn(<SourcesPage />, testUser('ada', 'admin'));
    const zigbee = await screen.findByRole('article', { name: 'Zigbee2MQTT' });
    expect(within(zigbee).getByText('On')).toBeTruthy();
    expect(within(zigbee).getByText('12 devices')).toBeTruthy();
    expect(within(zigbee).getByText('Last message just now')).toBeTruthy();
    expect(within(zigbee).getByText('Reads zigbee2mqtt')).toBeTruthy();
    // Zigbee2MQTT keeps nothing Hearth may clear: no refused configs, no Forget.
    expect(within(zigbee).queryByRole('button', { name: /Forget/ })).toBeNull();
    expect(within(card('Tasmota')).getByText('Off')).toBeTruthy();
    expect(within(card('Shelly')).getByText('No message yet')).toBeTruthy();
    expect(within(card('Shelly')).getByText('Nothing refused')).toBeTruthy();
  });

  it('lists a refused config with its reason and topic, and Forget clears it after asking', async () => {
    renderSignedIn(<SourcesPage />, testUser('ada', 'admin'));
    const ha = await screen.findByRole('article', { name: 'Home Assistant' });
    const row = within(ha).getByText(ghost).closest('tr') as HTMLElement;
    expect(within(row).getByText('availability must be a list of {topic, …}')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: `Forget ${ghost}` }));
    const dialog = screen.getByRole('dialog', { name: `Forget ${ghost}?` });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Forget' })));
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/devicehub/sources/homeassistant/forget', body: { topic: ghost } },
    ]);
    expect(await screen.findByText(`Forgotten: ${ghost}`)).toBeTruthy();
    expect(await within(card('Home Assistant')).findByText('Nothing refused')).toBeTruthy();
  });

  it("forgets a retained config typed in, and shows the server's refusal", async () => {
    renderSignedIn(<SourcesPage />, testUser('ada', 'admin'));
    const ha = await screen.findByRole('article', { name: 'Home Assistant' });
    fireEvent.change(within(ha).getByLabelText('Forget a retained config'), {
      target: { value: 'zigbee2mqtt/x' },
    });
    fireEvent.click(within(ha).getByRole('button', { name: 'Forget' }));
    await act(async () =>
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Forget' })),
    );
    expect(await screen.findByText('Not a retained config topic of this source')).toBeTruthy();
  });
});
