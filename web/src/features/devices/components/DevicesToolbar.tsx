import { type Room, sourceName } from '@hearth/contracts';
import { ListFilter, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { TOOLBAR } from '../devices.messages.js';
import {
  type DeviceFilter,
  hiddenFiltersOn,
  isFiltering,
  NO_FILTER,
  resolveRoom,
  roomParam,
  UNASSIGNED,
} from '../model/filters.js';
import './phone.css';

interface ToolbarProps {
  filter: DeviceFilter;
  update(change: Partial<DeviceFilter>, replace?: boolean): void;
  rooms: Room[];
  types: string[];
  /** The sources present (protocols); the Source filter shows when there are several, or one is chosen. */
  sources?: string[];
  /** Opens the Manage rooms dialog; absent: no such button. */
  onManageRooms?: () => void;
  /** False where the viewer has no rooms to filter or group by (a `user`, docs/access.md): no Room, no Group by room. */
  byRoom?: boolean;
}

/** docs/screens.md#toolbar: search, filters, grouping; every change goes to the URL. */
export function DevicesToolbar({
  filter,
  update,
  rooms,
  types,
  sources = [],
  onManageRooms,
  byRoom = true,
}: ToolbarProps) {
  const id = useId();
  // The box follows the URL (back/forward) but keeps what is being typed.
  const [query, setQuery] = useState(filter.q);
  useEffect(() => setQuery(filter.q), [filter.q]);
  const resolved = filter.room ? resolveRoom(rooms, filter.room) : undefined;
  const roomValue =
    filter.room === null
      ? ''
      : resolved === null
        ? UNASSIGNED
        : resolved === undefined
          ? filter.room
          : resolved;
  const typeOptions = filter.type && !types.includes(filter.type) ? [...types, filter.type] : types;
  const sourceOptions =
    filter.source && !sources.includes(filter.source) ? [...sources, filter.source] : sources;
  // docs/screens.md#on-a-phone: below 600 px the fields after the search wait behind "Filters".
  const [open, setOpen] = useState(false);
  const on = hiddenFiltersOn(filter);
  return (
    <search
      id={`${id}-toolbar`}
      className={`devices-toolbar${open ? ' devices-toolbar--open' : ''}`}
      aria-label={TOOLBAR.label}
    >
      <div className="toolbar-search">
        <Search size={16} aria-hidden="true" />
        <input
          type="search"
          className="input"
          aria-label={TOOLBAR.search}
          placeholder={TOOLBAR.searchHint}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            update({ q: event.target.value }, true);
          }}
        />
      </div>
      <button
        type="button"
        className="button button--secondary button--small toolbar-filters-button"
        aria-expanded={open}
        aria-controls={`${id}-toolbar`}
        onClick={() => setOpen(!open)}
      >
        <ListFilter size={16} aria-hidden="true" />
        {TOOLBAR.filters}
        {on > 0 && (
          <>
            <span className="badge toolbar-filters-count" aria-hidden="true">
              {on}
            </span>
            <span className="visually-hidden">{TOOLBAR.filtersOn(on)}</span>
          </>
        )}
      </button>
      {byRoom && (
        <div className="toolbar-field">
          <label className="field-label" htmlFor={`${id}-room`}>
            {TOOLBAR.room}
          </label>
          <select
            id={`${id}-room`}
            className="select select--compact"
            value={roomValue}
            onChange={(event) => {
              const value = event.target.value;
              const room = rooms.find((candidate) => candidate.id === value);
              update({ room: room ? roomParam(rooms, room) : value || null });
            }}
          >
            <option value="">{TOOLBAR.allRooms}</option>
            {rooms.map((room) => (
              <option key={room.id} value={room.id}>
                {room.name}
              </option>
            ))}
            <option value={UNASSIGNED}>{TOOLBAR.unassigned}</option>
            {resolved === undefined && filter.room && <option value={filter.room}>{filter.room}</option>}
          </select>
        </div>
      )}
      <div className="toolbar-field">
        <label className="field-label" htmlFor={`${id}-type`}>
          {TOOLBAR.type}
        </label>
        <select
          id={`${id}-type`}
          className="select select--compact"
          value={filter.type ?? ''}
          onChange={(event) => update({ type: event.target.value || null })}
        >
          <option value="">{TOOLBAR.allTypes}</option>
          {typeOptions.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </div>
      {(sources.length > 1 || filter.source) && (
        <div className="toolbar-field">
          <label className="field-label" htmlFor={`${id}-source`}>
            {TOOLBAR.source}
          </label>
          <select
            id={`${id}-source`}
            className="select select--compact"
            value={filter.source ?? ''}
            onChange={(event) => update({ source: event.target.value || null })}
          >
            <option value="">{TOOLBAR.allSources}</option>
            {sourceOptions.map((source) => (
              <option key={source} value={source}>
                {sourceName(source)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="toolbar-field">
        <label className="field-label" htmlFor={`${id}-status`}>
          {TOOLBAR.status}
        </label>
        <select
          id={`${id}-status`}
          className="select select--compact"
          value={filter.status ?? ''}
          onChange={(event) => update({ status: (event.target.value || null) as DeviceFilter['status'] })}
        >
          <option value="">{TOOLBAR.anyStatus}</option>
          <option value="online">{TOOLBAR.online}</option>
          <option value="offline">{TOOLBAR.offline}</option>
        </select>
      </div>
      <label className="toolbar-check">
        <input
          type="checkbox"
          checked={filter.battery === 'low'}
          onChange={(event) => update({ battery: event.target.checked ? 'low' : null })}
        />
        {TOOLBAR.batteryLow}
      </label>
      {byRoom && (
        <label className="toolbar-check">
          <input
            type="checkbox"
            checked={filter.group === 'room'}
            onChange={(event) => update({ group: event.target.checked ? 'room' : null })}
          />
          {TOOLBAR.groupByRoom}
        </label>
      )}
      <div className="toolbar-actions">
        {isFiltering(filter) && (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => update({ ...NO_FILTER, group: filter.group })}
          >
            {TOOLBAR.clearFilters}
          </button>
        )}
        {onManageRooms && (
          <button type="button" className="button button--secondary button--small" onClick={onManageRooms}>
            {TOOLBAR.manageRooms}
          </button>
        )}
      </div>
    </search>
  );
}
