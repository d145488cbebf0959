import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../shared/session/test-render.js';
import { testUser } from '../shared/session/test-user.js';
import { PAGE_AT } from './pages.js';
import { Sidebar } from './Sidebar.js';

describe('Sidebar', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("starts loading a page's code when the pointer reaches its entry or the keyboard focuses it", () => {
    const activity = vi.spyOn(PAGE_AT['/activity'] as { preload(): Promise<unknown> }, 'preload');
    const users = vi.spyOn(PAGE_AT['/users'] as { preload(): Promise<unknown> }, 'preload');
    activity.mockResolvedValue(undefined);
    users.mockResolvedValue(undefined);
    renderSignedIn(<Sidebar overlayOpen={false} onClose={() => {}} />, testUser('ada', 'admin'));
    expect(activity).not.toHaveBeenCalled();
    fireEvent.pointerEnter(screen.getByRole('link', { name: 'Activity' }));
    expect(activity).toHaveBeenCalledTimes(1);
    expect(users).not.toHaveBeenCalled();
    fireEvent.focus(screen.getByRole('link', { name: 'Users' }));
    expect(users).toHaveBeenCalledTimes(1);
  });
});
