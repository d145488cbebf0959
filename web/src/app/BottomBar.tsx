import { History, House, Menu, Zap } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useDevicesAccess } from '../features/access/own-access.js';
import { useSession } from '../shared/session/session-context.js';
import { bottomBarItemsFor, isCurrent, type NavItem } from './nav-items.js';
import { PAGE_AT } from './pages.js';
import './bottom-bar.css';

const ICONS: Partial<Record<NavItem['icon'], typeof House>> = {
  home: House,
  devices: Zap,
  activity: History,
};

/** docs/strings.md#navigation-and-layout */
export const BOTTOM_BAR = { label: 'Shortcuts', menu: 'Menu' } as const;

interface Props {
  /** Whether the sidebar's overlay is open (the Menu button opens it). */
  menuOpen: boolean;
  onMenu(): void;
}

/**
 * docs/screens.md#bottom-bar: on a phone (below 600 px) a bar at the bottom of the window with
 * Home, Devices and Activity (those of them the sidebar lists for the viewer) and "Menu", which
 * opens the sidebar. Hidden from 600 px on by its CSS.
 */
export function BottomBar({ menuOpen, onMenu }: Props) {
  const { user } = useSession();
  const { pathname } = useLocation();
  const devices = useDevicesAccess(user, pathname);
  const items = bottomBarItemsFor(user?.role, { devices: devices.allowed });
  return (
    <nav className="bottom-bar" aria-label={BOTTOM_BAR.label}>
      <ul>
        {items.map((item) => {
          const Icon = ICONS[item.icon] ?? House;
          const current = isCurrent(item, pathname);
          return (
            <li key={item.path}>
              <Link
                to={item.path}
                className={`bottom-bar-item${current ? ' bottom-bar-item--current' : ''}`}
                aria-current={current ? 'page' : undefined}
                onFocus={() => void PAGE_AT[item.path]?.preload().catch(() => {})}
                onPointerDown={() => void PAGE_AT[item.path]?.preload().catch(() => {})}
              >
                <Icon size={22} aria-hidden="true" />
                <span>{item.label}</span>
              </Link>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            className="bottom-bar-item"
            aria-controls="sidebar"
            aria-expanded={menuOpen}
            onClick={onMenu}
          >
            <Menu size={22} aria-hidden="true" />
            <span>{BOTTOM_BAR.menu}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
