import { deviceIconKind, type Room, sourceName } from '@hearth/contracts';
import { ChartLine, Pencil } from 'lucide-react';
import { memo, useCallback, useId, useMemo, useRef, useState } from 'react';
import { ACCESS_TEXTS } from '../../access/access.messages.js';
import { nameInRoom } from '../../rooms/room-names.js';
import { MESSAGES, SOURCE_TEXTS, selectDevice, TILE_TEXTS } from '../devices.messages.js';
import { useIsFavourite, useRoomList, useTileSelection } from '../hooks/use-assign.js';
import { useBusOffline, useDevice } from '../hooks/use-device-store.js';
import { useCanDrag } from '../hooks/use-wide.js';
import { binaryLabel, binaryTone } from '../model/binary.js';
import { buildCommand, type DeviceCommand } from '../model/commands.js';
import { binaryReadings, type Control, deviceControls, splitControls } from '../model/controls.js';
import { canControl, lastHeard } from '../model/device.model.js';
import type { DeviceView } from '../model/device.types.js';
import { DRAG_HINT_ID, DRAG_TYPE, PRESS_TARGETS } from '../model/drag.js';
import { humanise, truncateDescription } from '../model/format.js';
import { lockOf } from '../model/lock.js';
import { capabilityErrors, eventReadings, tileMetrics } from '../model/metrics.js';
import { Switch } from './ControlView.js';
import { useCommitProbe } from './commit-probe.js';
import { DeviceIcon } from './DeviceIcon.js';
import { useDevicesContext } from './devices-context.js';
import { LastSeen } from './LastSeen.js';
import { LockControl } from './LockControl.js';
import { RenameField } from './RenameField.js';
import { TileAccessButton } from './TileAccessButton.js';
import { TileControls } from './TileControls.js';
import { TileEvents } from './TileEvents.js';
import { TileMenu } from './TileMenu.js';
import { TileMetrics } from './TileMetrics.js';
import { TileRecordingButton } from './TileRecordingButton.js';
import { TileRoom, TileRoomPicker, TileStar } from './TileRoom.js';
import { TileSparkline } from './TileSparkline.js';
import './tile.css';

/** One device tile; subscribes to its own device only. */
export const DeviceTile = memo(function DeviceTile({ deviceKey }: { deviceKey: string }) {
  const { store, actions, rooms: hub, selection, manager = true } = useDevicesContext();
  const { device, pending, notResponding, failure } = useDevice(store, deviceKey);
  const busOffline = useBusOffline(store);
  const rooms = useRoomList(hub?.rooms);
  const picked = useTileSelection(selection, device?.id ?? null);
  const canDrag = useCanDrag();
  useCommitProbe();
  if (!device) return null;
  return (
    <TileBody
      device={device}
      pending={pending}
      notResponding={notResponding}
      failure={failure}
      disabled={pending || busOffline}
      actions={actions}
      rooms={hub ? rooms : null}
      selecting={picked.active}
      selected={picked.selected}
      canDrag={canDrag && manager && !!hub && !!device.id && canControl(device)}
      manager={manager}
    />
  );
});

function TileBody({
  device,
  pending,
  notResponding,
  failure,
  disabled,
  actions,
  rooms,
  selecting,
  selected,
  canDrag,
  manager,
}: {
  device: DeviceView;
  pending: boolean;
  /** Its last command was not confirmed by its state in time (docs/screens.md#device-tile). */
  notResponding: boolean;
  /** Why its last command failed on the device's side (a Shelly RPC's 502/504), else null. */
  failure: string | null;
  /** Pending, or the device bus is offline. */
  disabled: boolean;
  actions: ReturnType<typeof useDevicesContext>['actions'];
  /** docs/rooms.md: the rooms, null when the page has none to offer (tests of other parts). */
  rooms: Room[] | null;
  /** "Select" mode is on / this tile is picked. */
  selecting: boolean;
  selected: boolean;
  canDrag: boolean;
  /** A resident or admin (room, rename, history, recording, access, star); false for a `user`. */
  manager: boolean;
}) {
  const { selection, store, rooms: hub, admin = false } = useDevicesContext();
  // docs/access.md: a device the viewer may only view shows its state live, its controls disabled.
  const viewOnly = !canControl(device);
  const viewOnlyId = useId();
  const controlsOff = disabled || viewOnly;
  const [renaming, setRenaming] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const starred = useIsFavourite(manager ? hub?.favourites : undefined, device.id);
  // The icon reads only metadata (kept as it was across state messages by the store).
  const { capabilities, type, description, model, name, manufacturer } = device;
  const icon = useMemo(
    () => deviceIconKind({ capabilities, type, description, model, name, manufacturer }),
    [capabilities, type, description, model, name, manufacturer],
  );
  const view = useMemo(() => {
    const controls = deviceControls(device);
    // docs/screens.md#locks: a lock reads Locked / Unlocked, never a power switch.
    const lock = lockOf(device, controls);
    const { power, others } = splitControls(controls.filter((control) => control !== lock?.control));
    const readings = binaryReadings(device).map((reading) => ({
      ...reading,
      label: binaryLabel(reading.property, reading.value),
      tone: binaryTone(reading.property, reading.value),
    }));
    // A value the user sets with a control is not repeated as a metric (a composite's part by its path).
    const controlled = new Set(
      [lock?.control, power, ...others].flatMap((control) =>
        !control
          ? []
          : control.within
            ? [`${control.within.property}.${control.property}`]
            : control.composite
              ? [
                  control.property,
                  ...Object.values(control.parts ?? {}).map((part) => `${control.property}.${part.property}`),
                ]
              : [control.property, control.parts?.actions?.property, control.parts?.position?.property],
      ),
    );
    return {
      lock,
      power: lock ? null : power,
      others,
      readings,
      metrics: tileMetrics(device, new Set([...controlled].filter((p): p is string => !!p))),
      events: eventReadings(device),
      errors: capabilityErrors(device),
      alert: readings.some((r) => r.tone === 'danger')
        ? 'danger'
        : readings.some((r) => r.tone === 'warning')
          ? 'warning'
          : null,
    };
  }, [device]);

  const sendCommand = (command: DeviceCommand | null) => void actions.send(device, command);
  const send = (control: Control, value: unknown) => sendCommand(buildCommand(control, value));
  const on = view.lock
    ? view.lock.status === 'locked'
    : view.power
      ? view.power.value === true
      : device.toggleState === true;
  const meta = [device.manufacturer || 'Unknown', device.model, device.type].filter(Boolean).join(' • ');
  const classes = [
    'device-tile',
    `icon-${icon}`,
    on && 'is-on',
    view.alert && `alert-${view.alert}`,
    !device.online && 'is-offline',
    selected && 'is-selected',
  ]
    .filter(Boolean)
    .join(' ');

  const roomName = device.roomId ? rooms?.find((room) => room.id === device.roomId)?.name : null;
  const id = device.id;
  // The parts below that do not show the state get props that stay the same across state messages
  // (they are memoised), so a message renders the state's parts of the tile only.
  const key = device.key;
  const rename = useCallback(
    (name: string) => {
      const current = store.getDevice(key);
      return current ? actions.rename(current, name) : Promise.reject(new Error(MESSAGES.renameNotReady));
    },
    [store, actions, key],
  );
  const renamed = useCallback(() => {
    setRenaming(false);
    menuButton.current?.focus();
  }, []);
  const { displayName, roomId, suggestedRoom } = device;
  const roomed = useMemo(
    () => (id ? { id, displayName, roomId, suggestedRoom } : null),
    [id, displayName, roomId, suggestedRoom],
  );
  // docs/rooms.md#drag-and-drop: the tile, or the whole selection when the tile is in it.
  const drag = canDrag
    ? {
        draggable: true,
        'aria-describedby': DRAG_HINT_ID,
        onPointerDown: (event: React.PointerEvent<HTMLElement>) => {
          event.currentTarget.draggable = !(event.target as Element).closest(PRESS_TARGETS);
        },
        onDragStart: (event: React.DragEvent<HTMLElement>) => {
          if (!id) return;
          const ids = selected && selection ? [...selection.getSnapshot().ids] : [id];
          event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(ids));
          event.dataTransfer.setData('text/plain', device.displayName);
          event.dataTransfer.effectAllowed = 'move';
        },
      }
    : {};
  const canRename = manager && !viewOnly && !!id;
  const historyHref = manager && id ? `/devices/${encodeURIComponent(id)}` : undefined;

  return (
    <article
      className={classes}
      data-device-id={device.id ?? device.key}
      aria-label={device.displayName}
      {...drag}
    >
      <header className="tile-header">
        {selecting && id && selection && !viewOnly && (
          <input
            type="checkbox"
            className="tile-select"
            aria-label={selectDevice(device.displayName)}
            checked={selected}
            onChange={() => selection.toggle(id)}
          />
        )}
        <DeviceIcon kind={icon} />
        <div className="tile-heading">
          <RenameField
            name={device.displayName}
            shownName={nameInRoom(device.displayName, roomName)}
            starred={starred}
            editing={renaming}
            onDone={renamed}
            onRename={rename}
          />
          <p className="tile-meta">{meta}</p>
        </div>
        <div className="tile-power">
          {view.lock ? (
            <LockControl
              lock={view.lock}
              name={device.displayName}
              disabled={controlsOff}
              describedBy={viewOnly ? viewOnlyId : undefined}
              onSend={viewOnly ? undefined : sendCommand}
            />
          ) : view.power ? (
            <Switch
              checked={on}
              label={`Power ${device.displayName}`}
              disabled={controlsOff}
              describedBy={viewOnly ? viewOnlyId : undefined}
              onChange={(next) => send(view.power as Control, next)}
            />
          ) : (
            <span className={`status ${device.online ? 'online' : 'offline'}`}>
              {device.online ? 'Online' : 'Offline'}
            </span>
          )}
        </div>
        {manager && id && (
          <TileMenu name={device.displayName} ref={menuButton}>
            {canRename && (
              <button
                type="button"
                className="popover-item"
                aria-label={TILE_TEXTS.renameLabel(device.displayName)}
                disabled={disabled}
                data-closes-menu
                onClick={() => setRenaming(true)}
              >
                <Pencil size={16} aria-hidden="true" />
                {TILE_TEXTS.rename}
              </button>
            )}
            {historyHref && (
              <a
                className="popover-item"
                href={historyHref}
                aria-label={TILE_TEXTS.historyLabel(device.displayName)}
              >
                <ChartLine size={16} aria-hidden="true" />
                {TILE_TEXTS.history}
              </a>
            )}
            {rooms && roomed && !viewOnly && <TileRoomPicker device={roomed} rooms={rooms} />}
            <TileStar deviceId={id} name={device.displayName} />
            <TileRecordingButton deviceId={id} name={device.displayName} capabilities={device.capabilities} />
            <TileAccessButton deviceId={id} name={device.displayName} roomId={device.roomId} />
          </TileMenu>
        )}
      </header>
      <div className="pills">
        {viewOnly && (
          <span className="pill tone-muted tile-view-only" id={viewOnlyId}>
            {ACCESS_TEXTS.viewOnly}
          </span>
        )}
        <span
          className="pill source-badge"
          data-source={device.protocol ?? ''}
          title={SOURCE_TEXTS.sourceLabel(sourceName(device.protocol))}
        >
          {sourceName(device.protocol)}
        </span>
        <span className="pill">{device.capabilities.length} capabilities</span>
        {device.firmware && <span className="pill">FW {device.firmware}</span>}
        {view.readings.map((reading) => (
          <span key={reading.property} className={`pill tone-${reading.tone}`} data-binary={reading.property}>
            {humanise(reading.property)}: {reading.label}
          </span>
        ))}
      </div>
      {rooms && roomed && <TileRoom device={roomed} rooms={rooms} canMove={manager && !viewOnly} />}
      {device.description && <p className="tile-description">{truncateDescription(device.description)}</p>}
      <TileControls
        controls={view.others}
        disabled={controlsOff}
        onSend={send}
        describedBy={viewOnly ? viewOnlyId : undefined}
        deviceName={device.displayName}
      />
      <TileEvents
        events={view.events}
        timeOf={(property) => store.getEventTime(key, property)}
        fallback={lastHeard(device)}
      />
      <TileMetrics metrics={view.metrics} errors={admin ? view.errors : undefined} />
      {manager && (
        <TileSparkline deviceId={device.id} capabilities={device.capabilities} name={device.displayName} />
      )}
      <footer className="tile-footer">
        <LastSeen at={lastHeard(device)} />
        {pending && <span className="updating">{MESSAGES.updating}</span>}
        {failure && !pending ? (
          <span className="tile-failure" role="alert">
            {failure}
          </span>
        ) : (
          notResponding &&
          !pending && (
            <span className="tile-not-responding" role="status">
              {TILE_TEXTS.notResponding}
            </span>
          )
        )}
      </footer>
    </article>
  );
}
