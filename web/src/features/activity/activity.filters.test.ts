import { describe, expect, it } from 'vitest';
import {
  apiQuery,
  exportHref,
  filtersFromSearch,
  NO_FILTERS,
  searchFromFilters,
} from './activity.filters.js';

const NOW = Date.UTC(2026, 5, 1, 12);

describe('Activity filters in the address bar', () => {
  it.each([
    ['', NO_FILTERS],
    ['?kind=sign_in', { ...NO_FILTERS, kind: 'sign_in' }],
    ['?kind=dance&range=forever', NO_FILTERS],
    [
      '?actor=u1&room_id=r1&device_id=d1&range=24h',
      { ...NO_FILTERS, actor: 'u1', room_id: 'r1', device_id: 'd1', range: '24h' },
    ],
    ['?actor=%20u1%20', { ...NO_FILTERS, actor: 'u1' }],
  ])('%s reads as %j', (search, filters) => {
    expect(filtersFromSearch(new URLSearchParams(search))).toEqual(filters);
  });

  it('writes back only what is set, and reads back the same', () => {
    const filters = { ...NO_FILTERS, kind: 'device.command' as const, range: '7d' as const };
    const search = searchFromFilters(filters);
    expect(search.toString()).toBe('kind=device.command&range=7d');
    expect(filtersFromSearch(search)).toEqual(filters);
    expect(searchFromFilters(NO_FILTERS).toString()).toBe('');
  });
});

describe('the API query and the export link', () => {
  it.each([
    ['', undefined],
    ['1h', '2026-06-01T11:00:00.000Z'],
    ['24h', '2026-05-31T12:00:00.000Z'],
    ['7d', '2026-05-25T12:00:00.000Z'],
    ['30d', '2026-05-02T12:00:00.000Z'],
  ] as const)('range %j asks from %j', (range, from) => {
    expect(apiQuery({ ...NO_FILTERS, range }, NOW).from).toBe(from);
  });

  it('links the export with the same filters', () => {
    expect(exportHref(NO_FILTERS, NOW)).toBe('/api/activity/export');
    expect(exportHref({ ...NO_FILTERS, actor: 'u 1', kind: 'sign_in', range: '1h' }, NOW)).toBe(
      '/api/activity/export?actor=u+1&kind=sign_in&from=2026-06-01T11%3A00%3A00.000Z',
    );
  });
});
