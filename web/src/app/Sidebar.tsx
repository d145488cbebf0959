import {
  Bell,
  Flame,
  History,
  House,
  Map as MapIcon,
  Music,
  Ticket,
  Users,
  Workflow,
  Zap,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useDevicesAccess } from '../features/access/own-access.js';
import { useSession } from '../shared/session/session-context.js';
import { isCurrent, type NavItem, navGroupsFor } from './nav-items.js';
import { PAGE_AT } from './pages.js';

const ICONS: Record<NavItem['icon'], typeof House> = {
  home: House,
  devices: Zap,
  map: MapIcon,
  users: Users,
  passes: Ticket,
  automations: Workflow,
  activity: History,
  notifications: Bell,
  music: Music,
};

interface Props {
  /** Below 1400 px the sidebar is an overlay: open or not. */
  overlayOpen: boolean;
  onClose(): void;
}

/** docs/screens.md#layout: permanent at ≥ 1400 px, an overlay below that closes on an outside click or a choice. */
export function Sidebar({ overlayOpen, onClose }: Props) {
  const { user } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const nav = useRef<HTMLElement>(null);
  const devices = useDevicesAccess(user, pathname);

  useEffect(() => {
    if (!overlayOpen) return;
    nav.current?.querySelector<HTMLElement>('[aria-current=page], a')?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [overlayOpen, onClose]);

  return (
    <>
      {overlayOpen && <div className="sidebar-scrim" onMouseDown={onClose} aria-hidden="true" />}
      <nav
        ref={nav}
        id="sidebar"
        className={`sidebar${overlayOpen ? ' sidebar--open' : ''}`}
        aria-label="Main menu"
      >
        <button
          type="button"
          className="sidebar-logo"
          onClick={() => {
            navigate('/');
            onClose();
          }}
        >
          <Flame size={24} aria-hidden="true" />
          <span>Hearth</span>
        </button>
        {navGroupsFor(user?.role, { devices: devices.allowed }).map((group) => (
          <div key={group.title} className="sidebar-group">
            <h2 className="sidebar-group-title">{group.title}</h2>
            <ul>
              {group.items.map((item) => {
                const Icon = ICONS[item.icon];
                const current = isCurrent(item, pathname);
                return (
                  <li key={item.path}>
                    <Link
                      to={item.path}
                      className={`sidebar-link${current ? ' sidebar-link--current' : ''}`}
                      aria-current={current ? 'page' : undefined}
                      onClick={onClose}
                      // The page's code starts loading while the pointer is on its way to the click.
                      onPointerEnter={() => void PAGE_AT[item.path]?.preload().catch(() => {})}
                      onFocus={() => void PAGE_AT[item.path]?.preload().catch(() => {})}
                    >
                      <Icon size={20} aria-hidden="true" />
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
    </>
  );
}
