import {
  ACTIVITY_KINDS,
  type ActivityEntry,
  type Device,
  isManager,
  type Room,
  type User,
} from '@hearth/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../shared/session/session-context.js';
import { activityApi } from './activity.api.js';
import { deviceChoices } from './activity.devices.js';
import {
  type ActivityFilters,
  exportHref,
  filtersFromSearch,
  NO_FILTERS,
  RANGES,
  searchFromFilters,
} from './activity.filters.js';
import { absoluteTime, actorLabel, describe, type Names, relativeTime } from './activity.format.js';
import { KIND_LABELS, ACTIVITY_MESSAGES as M, RANGE_LABELS, RESULT_LABELS } from './activity.messages.js';
import { useActivityFeed } from './use-activity-feed.js';
import './activity.css';

const RESULT_TONE = { ok: 'tone-success', refused: 'tone-warning', failed: 'tone-danger' } as const;

/**
 * Names for the filters and entries: people, devices and rooms the viewer may list. The device
 * list is the largest answer the server gives (megabytes for thousands of devices): it is asked
 * for once the first entries have arrived, so it does not hold them up; entries name their device
 * from their own detail until then.
 */
function useDirectory(manager: boolean, entriesArrived: boolean) {
  const [people, setPeople] = useState<User[]>([]);
  const [devices, setDevices] = useState<Device[]>([]);
  const [rooms, setRooms] = useState<Room[]>([]);
  // Once: a change of filters starts the entries over, not the directory.
  const [devicesWanted, setDevicesWanted] = useState(false);
  if (entriesArrived && !devicesWanted) setDevicesWanted(true);
  useEffect(() => {
    if (!manager) return;
    let current = true;
    void activityApi.people().then((r) => current && r.success && setPeople(r.data.users ?? []));
    void activityApi.rooms().then((r) => current && r.success && setRooms(r.data.rooms ?? []));
    return () => {
      current = false;
    };
  }, [manager]);
  useEffect(() => {
    if (!manager || !devicesWanted) return;
    let current = true;
    void activityApi
      .devices()
      .then((r) => current && r.success && Array.isArray(r.data) && setDevices(r.data));
    return () => {
      current = false;
    };
  }, [manager, devicesWanted]);
  return { people, devices, rooms };
}

function Entry({ entry, names, now }: { entry: ActivityEntry; names: Names; now: number }) {
  const { title, summary } = describe(entry, names);
  return (
    <li className="activity-entry">
      <span className={`pill activity-entry__result ${RESULT_TONE[entry.result]}`}>
        {RESULT_LABELS[entry.result]}
      </span>
      <div className="activity-entry__what">
        <span className="activity-entry__title">{title}</span>
        {summary && <span className="activity-entry__summary">{summary}</span>}
      </div>
      <span className="activity-entry__who">
        {actorLabel(entry.actor)}
        {entry.ip && <span className="activity-entry__ip"> · {entry.ip}</span>}
      </span>
      <time className="activity-entry__when" dateTime={entry.at} title={absoluteTime(entry.at)}>
        <span className="activity-entry__relative">{relativeTime(entry.at, now)}</span>
        <span className="activity-entry__absolute">{absoluteTime(entry.at)}</span>
      </time>
    </li>
  );
}

/**
 * docs/activity.md#page: the Device filter, its devices sorted by name, with a search box above
 * the select that narrows its list (the chosen device always stays in it).
 */
function DeviceFilter({
  devices,
  chosen,
  onChoose,
}: {
  devices: Device[];
  chosen: string;
  onChoose(id: string): void;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const choices = useMemo(() => deviceChoices(devices, search, chosen), [devices, search, chosen]);
  return (
    <div className="activity-filter activity-filter--device">
      <label htmlFor={`${id}-device`}>{M.device}</label>
      <input
        type="search"
        className="input input--compact"
        aria-label={M.searchDevices}
        placeholder={M.searchDevices}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <select
        id={`${id}-device`}
        className="select"
        value={chosen}
        onChange={(e) => onChoose(e.target.value)}
      >
        <option value="">{M.anyDevice}</option>
        {chosen && !devices.some((d) => d.id === chosen) && <option value={chosen}>{chosen}</option>}
        {choices.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** docs/activity.md#page: who did what and when, newest first, filtered by the address bar. */
export default function ActivityPage() {
  const { user, loading } = useSession();
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const manager = isManager(user?.role);
  const feed = useActivityFeed(filters, Boolean(user));
  const { people, devices, rooms } = useDirectory(manager, feed.loaded);
  const end = useRef<HTMLLIElement>(null);
  const { more } = feed;

  const names = useMemo<Names>(() => {
    const deviceNames = new Map(devices.map((d) => [d.id, d.name]));
    const roomNames = new Map(rooms.map((r) => [r.id, r.name]));
    return { device: (id) => deviceNames.get(id), room: (id) => roomNames.get(id) };
  }, [devices, rooms]);

  // Infinite scroll: the next page loads as the end of the list comes into view.
  useEffect(() => {
    const target = end.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((entry) => entry.isIntersecting)) more();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [more]);

  const change = (patch: Partial<ActivityFilters>) =>
    setSearch(searchFromFilters({ ...filters, ...patch }), { replace: true });

  if (loading && !user) return <section className="activity-page" aria-busy="true" />;
  if (!user) return <section className="activity-page" />;

  const filtered = searchFromFilters(filters).toString() !== '';
  return (
    <section className="activity-page" aria-labelledby="activity-title">
      <header className="page-header">
        <div>
          <h1 id="activity-title">{M.title}</h1>
          <p className="activity-subtitle">{manager ? M.subtitle : M.subtitleOwn}</p>
        </div>
        <a
          className="button button--secondary activity-export"
          href={exportHref(filters, Date.now())}
          download
        >
          {M.exportCsv}
        </a>
      </header>

      <form className="activity-filters" aria-label={M.filters} onSubmit={(event) => event.preventDefault()}>
        {manager && (
          <label className="activity-filter">
            <span>{M.person}</span>
            <select
              className="select"
              value={filters.actor}
              onChange={(e) => change({ actor: e.target.value })}
            >
              <option value="">{M.anyone}</option>
              {filters.actor && !people.some((p) => p.id === filters.actor) && (
                <option value={filters.actor}>{filters.actor}</option>
              )}
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {`${p.first_name} ${p.last_name}`.trim() || p.email}
                </option>
              ))}
            </select>
          </label>
        )}
        {manager && (
          <label className="activity-filter">
            <span>{M.room}</span>
            <select
              className="select"
              value={filters.room_id}
              onChange={(e) => change({ room_id: e.target.value })}
            >
              <option value="">{M.anyRoom}</option>
              {filters.room_id && !rooms.some((r) => r.id === filters.room_id) && (
                <option value={filters.room_id}>{filters.room_id}</option>
              )}
              {rooms.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {manager && (
          <DeviceFilter
            devices={devices}
            chosen={filters.device_id}
            onChoose={(id) => change({ device_id: id })}
          />
        )}
        <label className="activity-filter">
          <span>{M.kind}</span>
          <select
            className="select"
            value={filters.kind}
            onChange={(e) => change({ kind: e.target.value as ActivityFilters['kind'] })}
          >
            <option value="">{M.anyKind}</option>
            {ACTIVITY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className="activity-filter">
          <span>{M.range}</span>
          <select
            className="select"
            value={filters.range}
            onChange={(e) => change({ range: e.target.value as ActivityFilters['range'] })}
          >
            {RANGES.map((range) => (
              <option key={range} value={range}>
                {RANGE_LABELS[range]}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            className="button button--ghost activity-filters__clear"
            onClick={() => change(NO_FILTERS)}
          >
            {M.clear}
          </button>
        )}
      </form>

      <ol className="activity-list" aria-label={M.list} aria-busy={feed.loading}>
        {feed.entries.map((entry) => (
          <Entry key={entry.id} entry={entry} names={names} now={feed.now} />
        ))}
        <li ref={end} className="activity-list__end">
          {feed.error ? (
            <span role="alert" className="activity-alert">
              {feed.error}{' '}
              <button type="button" className="button button--secondary button--small" onClick={feed.retry}>
                {M.retry}
              </button>
            </span>
          ) : feed.loading ? (
            <span className="activity-muted">{M.loading}</span>
          ) : feed.loaded && feed.entries.length === 0 ? (
            <span className="activity-muted">{M.empty}</span>
          ) : feed.next ? (
            <button type="button" className="button button--ghost button--small" onClick={feed.more}>
              {M.loadMore}
            </button>
          ) : (
            <span className="activity-muted">{M.end}</span>
          )}
        </li>
      </ol>
    </section>
  );
}
