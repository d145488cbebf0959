import type { Room } from '@hearth/contracts';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useToast } from '../../../shared/toast/toast-context.js';
import type { AssignTarget } from '../../rooms/assign.js';
import { acceptAll, suggestionGroups } from '../../rooms/assign.js';
import { SaveAsScene } from '../../scenes/SceneButtons.js';
import { acceptAllSuggestions, MESSAGES, selectedCount } from '../devices.messages.js';
import { ASSIGN_API, useMoveDevices, useRoomList } from '../hooks/use-assign.js';
import { useDeviceIds } from '../hooks/use-device-store.js';
import { useRoomDrop } from '../hooks/use-room-drop.js';
import { useCanDrag } from '../hooks/use-wide.js';
import { canControl } from '../model/device.model.js';
import type { DeviceView } from '../model/device.types.js';
import { carriesDevices, DRAG_HINT_ID } from '../model/drag.js';
import { useDevicesContext } from './devices-context.js';
import { RoomPicker } from './RoomPicker.js';
import './rooms-assign.css';

/**
 * docs/rooms.md#on-the-devices-page, above the grid: "Select" (then the selection bar),
 * "Accept all suggestions (N)", and while tiles are dragged the room drop bar. Nothing without
 * a rooms hub (tests of other parts).
 */
export function AssignToolbar({ shown = [] }: { shown?: readonly string[] }) {
  const { store, rooms: hub, selection } = useDevicesContext();
  const rooms = useRoomList(hub?.rooms);
  const ids = useDeviceIds(store);
  const version = useSyncExternalStore(store.subscribe, store.getAssignmentVersion);
  const { showToast } = useToast();
  const canDrag = useCanDrag();
  const [accepting, setAccepting] = useState(false);
  const selectButton = useRef<HTMLButtonElement>(null);
  const selecting = useSyncExternalStore(
    selection?.subscribe ?? (() => () => {}),
    () => selection?.getSnapshot().active ?? false,
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` tells that a room or suggestion changed.
  const groups = useMemo(
    () =>
      suggestionGroups(
        // docs/access.md: a device the viewer may only view is not moved in bulk.
        ids.map((id) => store.getDevice(id)).filter((d): d is DeviceView => !!d && canControl(d)),
        rooms,
      ),
    [ids, rooms, store, version],
  );
  const suggested = groups.reduce((sum, group) => sum + group.deviceIds.length, 0);

  if (!hub || !selection) return null;
  return (
    <div className="assign-toolbar">
      <button
        type="button"
        className="button button--secondary button--compact"
        ref={selectButton}
        aria-pressed={selecting}
        onClick={() => (selecting ? selection.stop() : selection.start())}
      >
        {MESSAGES.select}
      </button>
      {suggested > 0 && (
        <button
          type="button"
          className="button button--secondary button--compact"
          disabled={accepting}
          onClick={async () => {
            setAccepting(true);
            const failed = await acceptAll(ASSIGN_API, groups);
            setAccepting(false);
            if (failed.length > 0) showToast(failed.join('; '));
          }}
        >
          {acceptAllSuggestions(suggested)}
        </button>
      )}
      {canDrag && (
        <p id={DRAG_HINT_ID} className="visually-hidden">
          {MESSAGES.dragHint}
        </p>
      )}
      {selecting && <SelectionBar rooms={rooms} shown={shown} onDone={() => selectButton.current?.focus()} />}
      {canDrag && <RoomDropBar rooms={rooms} />}
    </div>
  );
}

/** docs/rooms.md#selection: "N selected", "Move to room" (one call for all), "Cancel"; Escape leaves. */
function SelectionBar({
  rooms,
  shown,
  onDone,
}: {
  rooms: Room[] /** Focus goes back to "Select" once moved. */;
  /** The devices the filter shows, for "Select all shown". */
  shown: readonly string[];
  onDone(): void;
}) {
  const { store, selection } = useDevicesContext();
  const move = useMoveDevices();
  const snapshot = useSyncExternalStore(
    selection?.subscribe ?? (() => () => {}),
    () => selection?.getSnapshot() ?? { active: false, ids: [] },
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Escape in a text field (a rename) is the field's.
      const target = event.target as HTMLElement | null;
      const typing = target?.matches?.('textarea, input:not([type=checkbox]):not([type=radio])');
      if (event.key === 'Escape' && !event.defaultPrevented && !typing) selection?.stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selection]);

  return (
    <section className="selection-bar" aria-label={MESSAGES.select}>
      <span className="selection-count" role="status">
        {selectedCount(snapshot.ids.length)}
      </span>
      <SelectAllShown
        shown={shown}
        picked={snapshot.ids}
        onPick={(ids) => selection?.add(ids)}
        store={store}
      />
      <RoomPicker
        rooms={rooms}
        current={undefined}
        label={MESSAGES.moveToRoom}
        menuLabel={MESSAGES.moveToRoom}
        buttonClassName="button button--primary button--compact"
        disabled={snapshot.ids.length === 0}
        onPick={async (target) => {
          const error = await move(target, [...snapshot.ids]);
          if (error) return;
          selection?.stop();
          onDone();
        }}
      >
        {MESSAGES.moveToRoom}
      </RoomPicker>
      <SaveAsScene
        deviceIds={snapshot.ids}
        roomId={null}
        className="button button--secondary button--compact"
      />
      <button
        type="button"
        className="button button--secondary button--compact"
        onClick={() => selection?.stop()}
      >
        {MESSAGES.cancel}
      </button>
    </section>
  );
}

/** docs/rooms.md#selection: picks every device the filter shows that the viewer may move (disabled once all are). */
function SelectAllShown({
  shown,
  picked,
  onPick,
  store,
}: {
  shown: readonly string[];
  picked: readonly string[];
  onPick(ids: string[]): void;
  store: ReturnType<typeof useDevicesContext>['store'];
}) {
  const movable = shown.filter((id) => {
    const device = store.getDevice(id);
    return device !== undefined && canControl(device);
  });
  const pickedSet = new Set(picked);
  const all = movable.every((id) => pickedSet.has(id));
  return (
    <button
      type="button"
      className="button button--secondary button--compact"
      disabled={all}
      onClick={() => onPick(movable)}
    >
      {MESSAGES.selectAllShown}
    </button>
  );
}

/** While tiles are dragged: one drop target per room and "Unassigned". */
function RoomDropBar({ rooms }: { rooms: Room[] }) {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const start = (event: DragEvent) => {
      // After the drag has started: changing the page inside dragstart can cancel the drag.
      if (carriesDevices(event.dataTransfer)) setTimeout(() => setDragging(true), 0);
    };
    const end = () => setDragging(false);
    document.addEventListener('dragstart', start);
    document.addEventListener('dragend', end);
    document.addEventListener('drop', end);
    return () => {
      document.removeEventListener('dragstart', start);
      document.removeEventListener('dragend', end);
      document.removeEventListener('drop', end);
    };
  }, []);
  if (!dragging) return null;
  return (
    <section className="room-drop-bar" aria-label={MESSAGES.dropOnRoom}>
      <span className="room-drop-bar-label">{MESSAGES.dropOnRoom}</span>
      {rooms.map((room) => (
        <RoomDrop key={room.id} target={{ roomId: room.id }} name={room.name} />
      ))}
      <RoomDrop target={{ roomId: null }} name={MESSAGES.unassigned} />
    </section>
  );
}

function RoomDrop({ target, name }: { target: AssignTarget; name: string }) {
  const { over, props } = useRoomDrop(target);
  return (
    <div className={`room-drop${over ? ' is-over' : ''}`} data-room-drop={name} {...props}>
      {name}
    </div>
  );
}
