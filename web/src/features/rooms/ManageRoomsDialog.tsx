import {
  DEFAULT_ROOM_ICON,
  type Floor,
  ROOM_ICONS,
  type Room,
  type RoomIcon as RoomIconName,
  type RoomsResponse,
} from '@hearth/contracts';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import type { ApiResult } from '../../shared/api/client.js';
import { Dialog } from '../../shared/ui/Dialog.js';
import { MANAGE } from './manage-rooms.messages.js';
import './manage-rooms.css';
import { RoomIcon, roomIconLabel } from './RoomIcon.js';
import { guessRoomIcon } from './room-icon-guess.js';
import { createFloor, createRoom, deleteFloor, deleteRoom, updateFloor, updateRoom } from './rooms.api.js';
import type { RoomsStore } from './rooms-store.js';

const DEFAULT_ICON: RoomIconName = DEFAULT_ROOM_ICON;
const NO_ICON = { value: DEFAULT_ICON, chosen: false };

/** Calls the API and resolves with its error (or the fallback), or null once it worked. */
type Call = (request: () => Promise<ApiResult<unknown>>, fallback: string) => Promise<string | null>;

async function call(request: () => Promise<ApiResult<unknown>>, fallback: string): Promise<string | null> {
  const result = await request();
  return result.success ? null : (result.error ?? fallback);
}

function IconSelect({
  value,
  label,
  onChange,
}: {
  value: RoomIconName;
  label: string;
  onChange(icon: RoomIconName): void;
}) {
  return (
    <span className="room-icon-select">
      <RoomIcon icon={value} />
      <select
        className="select select--compact"
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value as RoomIconName)}
      >
        {ROOM_ICONS.map((icon) => (
          <option key={icon} value={icon}>
            {roomIconLabel(icon)}
          </option>
        ))}
      </select>
    </span>
  );
}

function FloorSelect({
  floors,
  value,
  label,
  onChange,
}: {
  floors: Floor[];
  value: string | null;
  label: string;
  onChange(floor: string | null): void;
}) {
  return (
    <select
      className="select select--compact"
      aria-label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || null)}
    >
      <option value="">{MANAGE.noFloor}</option>
      {floors.map((floor) => (
        <option key={floor.id} value={floor.id}>
          {floor.name}
        </option>
      ))}
    </select>
  );
}

interface RowProps {
  /** A room or a floor. */
  item: { id: string; name: string; order: number };
  first: boolean;
  last: boolean;
  /** PATCHes the item; resolves with the error or null. */
  patch(change: {
    name?: string;
    order?: number;
    icon?: RoomIconName;
    floor_id?: string | null;
  }): Promise<string | null>;
  remove(): Promise<string | null>;
  confirmText: string;
  deleteText: string;
  /** A room's icon select, before its name. */
  icon?: ReactNode;
  /** A room's floor select, after its name. */
  floor?: ReactNode;
}

/**
 * One room or floor on a row of its own: (icon,) name (renamed with Save), (floor,) up/down, delete
 * with a confirmation; errors under it.
 */
function ItemRow({ item, first, last, patch, remove, confirmText, deleteText, icon, floor }: RowProps) {
  const [draft, setDraft] = useState(item.name);
  // A rename from elsewhere (another browser, or this one's Save) shows in the field.
  useEffect(() => setDraft(item.name), [item.name]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const run = async (work: () => Promise<string | null>) => {
    setBusy(true);
    const failure = await work();
    setBusy(false);
    setError(failure);
    return failure;
  };
  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (draft === item.name) return;
    await run(() => patch({ name: draft }));
  };
  const move = (by: number) => {
    if ((by < 0 && first) || (by > 0 && last) || busy) return;
    void run(() => patch({ order: item.order + by }));
  };
  const errorId = `${useId()}-error`;
  return (
    <li className="manage-row">
      <form className="manage-row-main" onSubmit={rename}>
        {icon && <span className="manage-cell manage-cell--icon">{icon}</span>}
        <span className="manage-cell manage-cell--name">
          <input
            className="input input--compact"
            aria-label={MANAGE.nameOf(item.name)}
            aria-describedby={error ? errorId : undefined}
            aria-invalid={error ? true : undefined}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          {draft !== item.name && (
            <button type="submit" className="button button--primary button--compact" disabled={busy}>
              {MANAGE.save}
            </button>
          )}
        </span>
        {floor && <span className="manage-cell manage-cell--floor">{floor}</span>}
        <span className="manage-row-buttons">
          <button
            type="button"
            className="icon-button"
            aria-label={MANAGE.moveUp(item.name)}
            aria-disabled={first || busy}
            onClick={() => move(-1)}
          >
            <ArrowUp size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={MANAGE.moveDown(item.name)}
            aria-disabled={last || busy}
            onClick={() => move(1)}
          >
            <ArrowDown size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="button button--ghost button--compact"
            aria-label={MANAGE.deleteLabel(item.name)}
            onClick={() => setConfirming(true)}
          >
            {MANAGE.delete}
          </button>
        </span>
      </form>
      {confirming && (
        <div className="manage-confirm">
          <span>{confirmText}</span>
          <button
            type="button"
            className="button button--danger button--compact"
            disabled={busy}
            onClick={async () => {
              const failure = await run(remove);
              if (failure === null) setConfirming(false);
            }}
          >
            {deleteText}
          </button>
          <button
            type="button"
            className="button button--secondary button--compact"
            onClick={() => setConfirming(false)}
          >
            {MANAGE.cancel}
          </button>
        </div>
      )}
      {error && (
        <p className="manage-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

/**
 * docs/screens.md#manage-rooms: a new room on a row like the rooms' own. Its icon follows the name
 * typed (guessRoomIcon: "Kitchen" → kitchen) until one is chosen by hand, and is reset after adding.
 */
function NewRoomForm({
  floors,
  onAdd,
}: {
  floors: Floor[];
  onAdd(room: { name: string; icon: RoomIconName; floor_id: string | null }): Promise<string | null>;
}) {
  const [name, setName] = useState('');
  const [icon, setIcon] = useState<{ value: RoomIconName; chosen: boolean }>(NO_ICON);
  const [floor, setFloor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = `${useId()}-error`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const failure = await onAdd({ name, icon: icon.value, floor_id: floor });
    setBusy(false);
    setError(failure);
    if (failure !== null) return;
    setName('');
    setIcon(NO_ICON);
  };
  return (
    <form
      className={`manage-add manage-row-main${floors.length > 0 ? ' manage-list--floors' : ''}`}
      onSubmit={submit}
    >
      <span className="manage-cell manage-cell--icon">
        <IconSelect
          value={icon.value}
          label={MANAGE.newRoomIcon}
          onChange={(value) => setIcon({ value, chosen: true })}
        />
      </span>
      <span className="manage-cell manage-cell--name">
        <input
          className="input input--compact"
          aria-label={MANAGE.roomName}
          placeholder={MANAGE.roomName}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          value={name}
          onChange={(event) => {
            const typed = event.target.value;
            setName(typed);
            if (!icon.chosen) setIcon({ value: guessRoomIcon(typed) ?? DEFAULT_ICON, chosen: false });
          }}
        />
      </span>
      {floors.length > 0 && (
        <span className="manage-cell manage-cell--floor">
          <FloorSelect floors={floors} value={floor} label={MANAGE.newRoomFloor} onChange={setFloor} />
        </span>
      )}
      <span className="manage-row-buttons">
        <button type="submit" className="button button--primary button--compact" disabled={busy}>
          {MANAGE.addRoom}
        </button>
      </span>
      {error && (
        <p className="manage-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function AddForm({
  label,
  button,
  onAdd,
  children,
}: {
  label: string;
  button: string;
  onAdd(name: string): Promise<string | null>;
  children?: React.ReactNode;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = `${useId()}-error`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const failure = await onAdd(name);
    setBusy(false);
    setError(failure);
    if (failure === null) setName('');
  };
  return (
    <form className="manage-add" onSubmit={submit}>
      <input
        className="input input--compact"
        aria-label={label}
        placeholder={label}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      {children}
      <button type="submit" className="button button--primary button--compact" disabled={busy}>
        {button}
      </button>
      {error && (
        <p className="manage-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * docs/screens.md#manage-rooms: create, rename, re-icon, reorder and delete rooms and floors, and
 * put rooms on floors. Each answer is applied at once (the stream's events follow for every page).
 */
export function ManageRoomsDialog({
  rooms,
  store,
  onClose,
}: {
  rooms: RoomsResponse;
  store: RoomsStore;
  onClose(): void;
}) {
  const headingId = useId();
  const floorsClass = rooms.floors.length > 0 ? ' manage-list--floors' : '';
  const room = (request: () => Promise<ApiResult<Room>>, fallback: string): ReturnType<Call> =>
    call(async () => {
      const result = await request();
      if (result.success) store.apply({ type: 'room.upsert', room: result.data });
      return result;
    }, fallback);
  const floor = (request: () => Promise<ApiResult<Floor>>, fallback: string): ReturnType<Call> =>
    call(async () => {
      const result = await request();
      if (result.success) store.apply({ type: 'floor.upsert', floor: result.data });
      return result;
    }, fallback);
  return (
    <Dialog labelledBy={headingId} onClose={onClose} size="large" className="manage-rooms">
      <h2 id={headingId} className="dialog-title">
        {MANAGE.title}
      </h2>
      <section aria-labelledby={`${headingId}-rooms`}>
        <h3 id={`${headingId}-rooms`}>{MANAGE.rooms}</h3>
        {rooms.rooms.length === 0 ? (
          <p className="manage-empty">{MANAGE.noRooms}</p>
        ) : (
          <>
            {/* The columns' names, for the eye: each field's label says the same to assistive technology. */}
            <div className={`manage-columns${floorsClass}`} aria-hidden="true">
              <span>{MANAGE.iconColumn}</span>
              <span>{MANAGE.nameColumn}</span>
              {rooms.floors.length > 0 && <span>{MANAGE.floorColumn}</span>}
            </div>
            <ul className={`manage-list manage-list--rooms${floorsClass}`}>
              {rooms.rooms.map((item, index) => (
                <ItemRow
                  key={item.id}
                  item={item}
                  first={index === 0}
                  last={index === rooms.rooms.length - 1}
                  patch={(change) => room(() => updateRoom(item.id, change), 'PATCH failed')}
                  remove={() =>
                    call(async () => {
                      const result = await deleteRoom(item.id);
                      if (result.success) store.apply({ type: 'room.removed', id: item.id });
                      return result;
                    }, 'DELETE failed')
                  }
                  confirmText={MANAGE.confirmRoom(item.name)}
                  deleteText={MANAGE.deleteRoom}
                  icon={
                    <IconSelect
                      value={item.icon}
                      label={MANAGE.iconOf(item.name)}
                      onChange={(icon) => void room(() => updateRoom(item.id, { icon }), 'PATCH failed')}
                    />
                  }
                  floor={
                    rooms.floors.length > 0 && (
                      <FloorSelect
                        floors={rooms.floors}
                        value={item.floor_id}
                        label={MANAGE.floorOf(item.name)}
                        onChange={(floorId) =>
                          void room(() => updateRoom(item.id, { floor_id: floorId }), 'PATCH failed')
                        }
                      />
                    )
                  }
                />
              ))}
            </ul>
          </>
        )}
        <NewRoomForm
          floors={rooms.floors}
          onAdd={({ name, icon, floor_id }) =>
            room(() => createRoom({ name, icon, ...(floor_id ? { floor_id } : {}) }), 'POST failed')
          }
        />
      </section>
      <section aria-labelledby={`${headingId}-floors`}>
        <h3 id={`${headingId}-floors`}>{MANAGE.floors}</h3>
        {rooms.floors.length === 0 ? (
          <p className="manage-empty">{MANAGE.noFloors}</p>
        ) : (
          <ul className="manage-list">
            {rooms.floors.map((item, index) => (
              <ItemRow
                key={item.id}
                item={item}
                first={index === 0}
                last={index === rooms.floors.length - 1}
                patch={({ name, order }) =>
                  floor(() => updateFloor(item.id, { name, order }), 'PATCH failed')
                }
                remove={() =>
                  call(async () => {
                    const result = await deleteFloor(item.id);
                    if (result.success) store.apply({ type: 'floor.removed', id: item.id });
                    return result;
                  }, 'DELETE failed')
                }
                confirmText={MANAGE.confirmFloor(item.name)}
                deleteText={MANAGE.deleteFloor}
              />
            ))}
          </ul>
        )}
        <AddForm
          label={MANAGE.floorName}
          button={MANAGE.addFloor}
          onAdd={(name) => floor(() => createFloor({ name }), 'POST failed')}
        />
      </section>
    </Dialog>
  );
}
