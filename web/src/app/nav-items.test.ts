import { isManager } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { bottomBarItemsFor, isCurrent, navGroupsFor } from './nav-items.js';

const labels = (role: Parameters<typeof navGroupsFor>[0]) =>
  navGroupsFor(role).map((group) => [group.title, group.items.map((item) => item.label)]);

describe('sidebar entries by role (docs/screens.md#layout, docs/roles.md)', () => {
  it.each([
    [
      null,
      [
        ['Main', ['Home', 'Map']],
        ['Integrations', ['Spotify']],
      ],
    ],
    [
      'user',
      [
        ['Main', ['Home', 'Map', 'Activity', 'Notifications']],
        ['Integrations', ['Spotify']],
      ],
    ],
    [
      'resident',
      [
        [
          'Main',
          ['Home', 'Devices', 'Map', 'Users', 'Guest passes', 'Automations', 'Activity', 'Notifications'],
        ],
        ['Integrations', ['Spotify']],
      ],
    ],
    [
      'admin',
      [
        [
          'Main',
          ['Home', 'Devices', 'Map', 'Users', 'Guest passes', 'Automations', 'Activity', 'Notifications'],
        ],
        ['Integrations', ['Spotify']],
      ],
    ],
  ] as const)('%s sees %j', (role, expected) => {
    expect(labels(role)).toEqual(expected);
  });

  it('gives a `user` with an access rule the Devices entry, and nobody signed out (docs/screens.md#devices-for-a-user)', () => {
    const main = (role: Parameters<typeof navGroupsFor>[0], devices: boolean) =>
      navGroupsFor(role, { devices })[0]?.items.map((item) => item.label);
    expect(main('user', true)).toEqual(['Home', 'Devices', 'Map', 'Activity', 'Notifications']);
    expect(main('user', false)).toEqual(['Home', 'Map', 'Activity', 'Notifications']);
    expect(main(null, true)).toEqual(['Home', 'Map']);
    expect(main('resident', false)).toEqual([
      'Home',
      'Devices',
      'Map',
      'Users',
      'Guest passes',
      'Automations',
      'Activity',
      'Notifications',
    ]);
  });

  it("puts the viewer's Home, Devices and Activity on a phone's bottom bar (docs/screens.md#bottom-bar)", () => {
    const bar = (role: Parameters<typeof navGroupsFor>[0], devices = false) =>
      bottomBarItemsFor(role, { devices }).map((item) => item.label);
    expect(bar(null)).toEqual(['Home']);
    expect(bar('user')).toEqual(['Home', 'Activity']);
    expect(bar('user', true)).toEqual(['Home', 'Devices', 'Activity']);
    expect(bar('resident')).toEqual(['Home', 'Devices', 'Activity']);
    expect(bar('admin')).toEqual(['Home', 'Devices', 'Activity']);
  });

  it('highlights only an exact path match', () => {
    const home = navGroupsFor('admin')[0]!.items[0]!;
    expect(isCurrent(home, '/')).toBe(true);
    expect(isCurrent(home, '/devices')).toBe(false);
    const devices = navGroupsFor('admin')[0]!.items[1]!;
    expect(isCurrent(devices, '/devices/')).toBe(false);
  });

  it('lets residents and admins manage', () => {
    expect([null, 'user', 'resident', 'admin'].map((r) => isManager(r as never))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
