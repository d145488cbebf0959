import { useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { AuthModal } from '../features/auth/auth-modal.lazy.js';
import { CriticalBanner } from '../features/notifications/CriticalBanner.js';
import { NotificationBell } from '../features/notifications/NotificationCenter.js';
import { OfflineNotice } from '../features/notifications/OfflineNotice.js';
import { useSessionControl } from '../shared/session/session-control.js';
import { loadable } from '../shared/ui/loadable.js';
import { BottomBar } from './BottomBar.js';
import { ProfileMenu } from './ProfileMenu.js';
import { Sidebar } from './Sidebar.js';

const AccountSettings = loadable(() => import('../features/settings/AccountSettings.js'));

/** docs/screens.md#layout: sidebar, top bar with the menu and profile buttons, the page, a phone's bottom bar, the auth modal. */
export function Layout() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const openMenu = useCallback(() => setMenuOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);
  // Drawn from its first opening on, and kept: it holds a sign-in waiting for its code.
  const { authModal } = useSessionControl();
  const [authWanted, setAuthWanted] = useState(authModal.open);
  if (authModal.open && !authWanted) setAuthWanted(true);

  return (
    <div className="shell">
      <Sidebar overlayOpen={menuOpen} onClose={closeMenu} />
      <div className="shell-main">
        <header className="topbar">
          <button
            type="button"
            className="icon-button menu-button"
            aria-label="Open menu"
            aria-controls="sidebar"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <span aria-hidden="true">☰</span>
          </button>
          <div className="topbar__end">
            <NotificationBell />
            <ProfileMenu onOpenSettings={() => setSettingsOpen(true)} />
          </div>
        </header>
        <OfflineNotice />
        <CriticalBanner />
        <main className="page">
          <Outlet />
        </main>
      </div>
      <BottomBar menuOpen={menuOpen} onMenu={openMenu} />
      {authWanted && <AuthModal />}
      {settingsOpen && <AccountSettings open={settingsOpen} onClose={closeSettings} />}
    </div>
  );
}
