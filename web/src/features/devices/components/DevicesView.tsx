import type { RoomsResponse } from '@hearth/contracts';
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { ACCESS_TEXTS } from '../../access/access.messages.js';
import { ManageRoomsDialog } from '../../rooms/ManageRoomsDialog.js';
import type { RoomsSnapshot, RoomsStore } from '../../rooms/rooms-store.js';
import { useRooms } from '../../rooms/use-rooms.js';
import { SOURCES_PATH } from '../../sources/sources.paths.js';
import {
  BRIDGE_OFFLINE,
  busOfflineSince,
  MESSAGES,
  SOURCE_TEXTS,
  TILE_TEXTS,
  TOOLBAR,
} from '../devices.messages.js';
import { type FilteredDevices, useDeviceFilter, useFilteredDevices } from '../hooks/use-device-filter.js';
import { useDeviceIds, useDeviceStats, useHubStatus } from '../hooks/use-device-store.js';
import type { DeviceStats } from '../model/device.types.js';
import { type DeviceFilter, deviceSources, deviceTypes, NO_FILTER } from '../model/filters.js';
import { clockTime } from '../model/format.js';
import { groupByRoom } from '../model/sections.js';
import { AssignToolbar } from './AssignToolbar.js';
import { BusDelayNotice } from './BusDelayNotice.js';
import { DeviceGrid } from './DeviceGrid.js';
import { DevicesToolbar } from './DevicesToolbar.js';
import { useDevicesContext } from './devices-context.js';

function Header({ filtered }: { filtered: FilteredDevices }) {
  const { store, admin = false } = useDevicesContext();
  const stats = useDeviceStats(store);
  const status = useHubStatus(store);
  return (
    <>
      <header className="devices-header">
        <div>
          <h1>{MESSAGES.title}</h1>
          <p className="devices-subtitle">
            {MESSAGES.subtitle} · {stats.total} discovered
            {stats.total > 0 && ` · ${stats.online} online`}
          </p>
        </div>
        <div className="pills header-pills">
          {admin && (
            <Link className="button button--ghost button--small devices-sources-link" to={SOURCES_PATH}>
              {SOURCE_TEXTS.sources}
            </Link>
          )}
          {status.metadata.connected ? (
            <span className="pill tone-success">Metadata: {status.metadata.source}</span>
          ) : (
            <span className="pill tone-warning">{MESSAGES.metadataOffline}</span>
          )}
          {status.stream.connected ? (
            <span className="pill tone-success">{MESSAGES.stateConnected}</span>
          ) : (
            <span className="pill tone-warning">{MESSAGES.stateOffline}</span>
          )}
        </div>
      </header>
      <section className="summary-card" aria-label="Summary">
        <Stat label="Total devices" name="total" stats={stats} filtered={filtered} />
        <Stat label="Online" name="online" stats={stats} filtered={filtered} />
        <Stat label="With state" name="withState" stats={stats} filtered={filtered} />
        <Stat
          label="Sensors"
          name="sensors"
          stats={stats}
          filtered={filtered}
          hint={TILE_TEXTS.sensorsHint}
        />
      </section>
      {status.bus?.bus === 'offline' && (
        <div className="notice-card" role="status">
          {busOfflineSince(clockTime(status.bus.since))}
        </div>
      )}
      <BusDelayNotice />
      {status.bus?.bus === 'online' && status.bus.bridge === 'offline' && (
        <div className="notice-card" role="status">
          {BRIDGE_OFFLINE}
        </div>
      )}
      {status.error && (
        <div className="error-card" role="alert">
          {status.error}
        </div>
      )}
    </>
  );
}

interface StatProps {
  label: string;
  name: keyof DeviceStats;
  stats: DeviceStats;
  filtered: FilteredDevices;
  /** What the figure counts, as its tooltip (and told to screen readers). */
  hint?: string;
}

/** One figure of the summary; while a filter narrows the list, the filtered count with the total beside it. */
function Stat({ label, name, stats, filtered, hint }: StatProps) {
  const value = stats[name];
  return (
    <div className="stat" title={hint}>
      {filtered.filtering ? (
        <span className="stat-value" data-stat={name}>
          {filtered.stats[name]}
          <span className="stat-total"> of {value}</span>
        </span>
      ) : (
        <span className="stat-value" data-stat={name}>
          {value}
        </span>
      )}
      <span className="stat-label">{label}</span>
      {hint && <span className="visually-hidden">{hint}</span>}
    </div>
  );
}

const NO_ROOMS: RoomsSnapshot = { rooms: [], floors: [], loaded: true, error: null };
const NO_ROOMS_STORE = {
  subscribe: () => () => {},
  getSnapshot: () => NO_ROOMS,
  load: async () => {},
} as unknown as RoomsStore;

interface BodyProps {
  filtered: FilteredDevices;
  filter: DeviceFilter;
  clear(): void;
  rooms: RoomsResponse;
  /** False while GET /api/rooms has not answered (a room filter cannot be judged yet). */
  roomsLoaded: boolean;
}

function Body({ filtered, filter, clear, rooms, roomsLoaded }: BodyProps) {
  const { store, manager = true } = useDevicesContext();
  const ids = useDeviceIds(store);
  const { loading, partial } = useHubStatus(store);
  const roomVersion = useCallback(() => store.getFacetsVersion(['room']), [store]);
  const facets = useSyncExternalStore(store.subscribe, roomVersion);
  const grouped = filter.group === 'room';
  // biome-ignore lint/correctness/useExhaustiveDependencies: facets says a device moved to another room.
  const groups = useMemo(
    () =>
      grouped
        ? groupByRoom(filtered.ids, (id) => store.getDevice(id)?.roomId ?? null, rooms, !filtered.filtering)
        : null,
    [grouped, filtered, rooms, store, facets],
  );
  if (ids.length > 0 && filter.room && !roomsLoaded && filtered.ids.length === 0) {
    return (
      <div className="devices-loading" role="status">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  }
  if (ids.length === 0 && loading) {
    return (
      <div className="devices-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {MESSAGES.connecting}
      </div>
    );
  }
  if (ids.length === 0)
    return <p className="devices-empty">{manager ? MESSAGES.empty : ACCESS_TEXTS.nothingShared}</p>;
  if (filtered.ids.length === 0) {
    return (
      <div className="devices-empty" role="status">
        <span>{TOOLBAR.noMatch}</span>
        <button type="button" className="button button--secondary button--small" onClick={clear}>
          {TOOLBAR.clearFilters}
        </button>
      </div>
    );
  }
  return (
    <>
      <AssignToolbar shown={filtered.ids} />
      <DeviceGrid ids={filtered.ids} groups={groups} partial={partial} />
    </>
  );
}

export function DevicesView() {
  const { store, rooms: roomsHub, manager = true } = useDevicesContext();
  const rooms = useRooms(roomsHub?.rooms ?? NO_ROOMS_STORE);
  const { filter: asked, update } = useDeviceFilter();
  // Without rooms (a `user`, docs/access.md) there is nothing to filter or group by room.
  const filter = useMemo(() => (roomsHub ? asked : { ...asked, room: null, group: null }), [roomsHub, asked]);
  const filtered = useFilteredDevices(store, filter, rooms.rooms);
  const ids = useDeviceIds(store);
  const { types, sources } = useMemo(() => {
    const devices = ids.map((id) => store.getDevice(id)).filter((device) => device !== undefined);
    return { types: deviceTypes(devices), sources: deviceSources(devices) };
  }, [ids, store]);
  const [managing, setManaging] = useState(false);
  return (
    <div className="devices-page">
      <Header filtered={filtered} />
      <DevicesToolbar
        filter={filter}
        update={update}
        rooms={rooms.rooms}
        types={types}
        sources={sources}
        onManageRooms={roomsHub && manager ? () => setManaging(true) : undefined}
        byRoom={!!roomsHub}
      />
      <Body
        filtered={filtered}
        filter={filter}
        clear={() => update({ ...NO_FILTER, group: filter.group })}
        rooms={rooms}
        roomsLoaded={!roomsHub || rooms.loaded || rooms.error !== null}
      />
      {managing && roomsHub && (
        <ManageRoomsDialog rooms={rooms} store={roomsHub.rooms} onClose={() => setManaging(false)} />
      )}
    </div>
  );
}
