import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../shared/api/test-fetch.js';
import { renderSignedIn } from '../../shared/session/test-render.js';
import { testUser } from '../../shared/session/test-user.js';
import { SceneButtons } from './SceneButtons.js';
import { reloadScenes } from './use-scenes.js';

const SCENES = [
  {
    id: 's1',
    name: 'Movie',
    icon: null,
    room_id: 'lounge',
    targets: [{ device_id: 'a', state: { on: true } }],
  },
  { id: 's2', name: 'Night', icon: null, room_id: null, targets: [{ device_id: 'b', state: { on: false } }] },
];

describe('scene buttons (docs/automations.md#scene-buttons)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows the room's scenes, applies one and says what did not take it", async () => {
    const calls = stubFetch((call) =>
      call.path === '/api/scenes'
        ? { body: { scenes: SCENES } }
        : { body: { results: [{ device_id: 'a', status: 'failed', error: 'Device removed' }] } },
    );
    await reloadScenes();
    renderSignedIn(<SceneButtons roomId="lounge" />, testUser('u1', 'resident'));
    fireEvent.click(await screen.findByRole('button', { name: 'Apply scene Movie' }));
    await screen.findByText('Movie: 1 of 1 devices did not take it');
    expect(screen.queryByRole('button', { name: 'Apply scene Night' })).toBeNull();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/scenes/s1/apply',
    ]);
  });

  it('saves the devices as a scene of the room', async () => {
    const calls = stubFetch((call) =>
      call.path === '/api/scenes'
        ? { body: { scenes: SCENES } }
        : { status: 201, body: { ...SCENES[0], id: 's3', name: 'Reading' } },
    );
    await reloadScenes();
    renderSignedIn(<SceneButtons roomId="lounge" deviceIds={['a', 'c']} />, testUser('u2', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Save as scene' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Reading' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Scene Reading saved');
    expect(calls.find((call) => call.path === '/api/scenes/capture')?.body).toEqual({
      name: 'Reading',
      device_ids: ['a', 'c'],
      room_id: 'lounge',
    });
  });

  it('shows nothing to a `user`', async () => {
    stubFetch(() => ({ body: { scenes: SCENES } }));
    await reloadScenes();
    renderSignedIn(<SceneButtons roomId="lounge" deviceIds={['a']} />, testUser('u3', 'user'));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Scenes' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Apply scene Movie' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save as scene' })).toBeNull();
  });
});
