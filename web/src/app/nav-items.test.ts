import { isManager } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { isCurrent, navGroupsFor } from './nav-items.js';

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
        ['Main', ['Home', 'Map', 'Activity']],
        ['Integrations', ['Spotify']],
      ],
    ],
    [
      'resident',
      [
        ['Main', ['Home', 'Devices', 'Map', 'Users', 'Guest passes', 'Activity']],
        ['Integrations', ['Spotify']],
      ],
    ],
    [
      'admin',
      [
        ['Main', ['Home', 'Devices', 'Map', 'Users', 'Guest passes', 'Activity']],
        ['Integrations', ['Spotify']],
      ],
    ],
  ] as const)('%s sees %j', (role, expected) => {
    expect(labels(role)).toEqual(expected);
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
