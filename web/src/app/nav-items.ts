import { MANAGER_ROLES, type Role } from '@hearth/contracts';
import { MUSIC_PROVIDER } from '../shared/music-provider.js';

export interface NavItem {
  path: string;
  label: string;
  icon:
    | 'home'
    | 'devices'
    | 'map'
    | 'users'
    | 'passes'
    | 'automations'
    | 'activity'
    | 'notifications'
    | 'music';
  /** Only these roles see the entry; everyone when absent. */
  roles?: readonly Role[];
  /** Also shown, whatever the role, when the viewer has this grant. */
  orWhen?: keyof NavGrants;
}

/** What a viewer may have beyond their role. */
export interface NavGrants {
  /** docs/screens.md#devices-for-a-user: a `user` with an access rule at view or control. */
  devices?: boolean;
}

export interface NavGroup {
  title: string;
  items: NavItem[];
}

const GROUPS: NavGroup[] = [
  {
    title: 'Main',
    items: [
      { path: '/', label: 'Home', icon: 'home' },
      { path: '/devices', label: 'Devices', icon: 'devices', roles: MANAGER_ROLES, orWhen: 'devices' },
      { path: '/map', label: 'Map', icon: 'map' },
      { path: '/users', label: 'Users', icon: 'users', roles: MANAGER_ROLES },
      // docs/passes.md#pages
      { path: '/passes', label: 'Guest passes', icon: 'passes', roles: MANAGER_ROLES },
      // docs/automations.md#page
      { path: '/automations', label: 'Automations', icon: 'automations', roles: MANAGER_ROLES },
      // docs/activity.md#page: every signed-in role (a `user` sees their own entries).
      { path: '/activity', label: 'Activity', icon: 'activity', roles: ['user', 'resident', 'admin'] },
      // docs/alerts.md#in-the-app: every signed-in role (each sees the alerts of the devices they may view).
      {
        path: '/notifications',
        label: 'Notifications',
        icon: 'notifications',
        roles: ['user', 'resident', 'admin'],
      },
    ],
  },
  {
    title: 'Integrations',
    items: [{ path: MUSIC_PROVIDER.path, label: MUSIC_PROVIDER.name, icon: 'music' }],
  },
];

/** The groups and entries a viewer with `role` (none when signed out) and `grants` may see. */
export function navGroupsFor(role: Role | null | undefined, grants: NavGrants = {}): NavGroup[] {
  const shown = (item: NavItem) =>
    !item.roles ||
    (role != null && item.roles.includes(role)) ||
    (role != null && item.orWhen !== undefined && grants[item.orWhen] === true);
  return GROUPS.map((group) => ({ ...group, items: group.items.filter(shown) })).filter(
    (group) => group.items.length > 0,
  );
}

/** docs/screens.md#bottom-bar: the pages a phone's bottom bar leads to, in its order (beside "Menu"). */
export const BOTTOM_BAR_PATHS = ['/', '/devices', '/activity'] as const;

/** The bottom bar's entries a viewer may see: the sidebar's, for the paths of BOTTOM_BAR_PATHS. */
export function bottomBarItemsFor(role: Role | null | undefined, grants: NavGrants = {}): NavItem[] {
  const items = navGroupsFor(role, grants).flatMap((group) => group.items);
  return BOTTOM_BAR_PATHS.flatMap((path) => items.filter((item) => item.path === path));
}

/** docs/screens.md#layout: highlighted only when the path matches exactly. */
export const isCurrent = (item: NavItem, pathname: string) => item.path === pathname;
