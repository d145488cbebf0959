import { deviceIconKind } from '@hearth/contracts';
import { ArrowDown, ArrowUp, Star } from 'lucide-react';
import { memo, useMemo } from 'react';
import { ControlView, Switch } from '../../devices/components/ControlView.js';
import { DeviceIcon } from '../../devices/components/DeviceIcon.js';
import { useDevicesContext } from '../../devices/components/devices-context.js';
import { LockControl } from '../../devices/components/LockControl.js';
import { MESSAGES } from '../../devices/devices.messages.js';
import { useBusOffline, useDevice } from '../../devices/hooks/use-device-store.js';
import { buildCommand, type DeviceCommand } from '../../devices/model/commands.js';
import { type Control, deviceControls, splitControls } from '../../devices/model/controls.js';
import { lockOf } from '../../devices/model/lock.js';
import { nameInRoom } from '../../rooms/room-names.js';
import { HOME_MESSAGES, moveDownLabel, moveUpLabel, unstarLabel } from '../home.messages.js';
import { mainValue } from './home-live.model.js';

export interface FavouriteCardProps {
  deviceId: string;
  /** The device's room name, null when unassigned. */
  roomName: (roomId: string | null) => string | null;
  first: boolean;
  last: boolean;
  onMove(deviceId: string, delta: number): void;
  onUnstar(deviceId: string): void;
}

/**
 * docs/screens.md#favourites: a Devices page tile in a compact form (its icon, switch and first
 * control), subscribed to its own device only, with the star and move buttons.
 */
export const FavouriteCard = memo(function FavouriteCard({
  deviceId,
  roomName,
  first,
  last,
  onMove,
  onUnstar,
}: FavouriteCardProps) {
  const { store, actions } = useDevicesContext();
  const { device, pending } = useDevice(store, deviceId);
  const busOffline = useBusOffline(store);
  const view = useMemo(() => {
    if (!device) return null;
    const controls = deviceControls(device);
    // docs/screens.md#locks: a lock reads Locked / Unlocked with Lock / Unlock, never a power switch.
    const lock = lockOf(device, controls);
    const { power, others } = splitControls(controls.filter((control) => control !== lock?.control));
    return {
      icon: deviceIconKind(device),
      lock,
      power: lock ? null : power,
      primary: others[0] ?? null,
      value: mainValue(device),
    };
  }, [device]);
  if (!device || !view) return null;

  const name = device.displayName;
  const disabled = pending || busOffline;
  const sendCommand = (command: DeviceCommand | null) => void actions.send(device, command);
  const send = (control: Control, value: unknown) => sendCommand(buildCommand(control, value));
  const on = view.lock
    ? view.lock.status === 'locked'
    : view.power
      ? view.power.value === true
      : device.toggleState === true;
  const room = roomName(device.roomId) ?? HOME_MESSAGES.unassigned;
  // A name that starts with its room ("Kitchen lamp" in Kitchen) does not repeat it below.
  const roomInName = device.roomId !== null && nameInRoom(name, room) !== name;
  const classes = ['favourite-card', `icon-${view.icon}`, on && 'is-on', !device.online && 'is-offline']
    .filter(Boolean)
    .join(' ');

  return (
    <article className={classes} data-device-id={device.id ?? device.key} aria-label={name}>
      <header className="favourite-card-header">
        <DeviceIcon kind={view.icon} />
        <div className="favourite-card-heading">
          <h3 className="favourite-card-name" title={name}>
            {name}
          </h3>
          {(!roomInName || !device.online) && (
            <p className="favourite-card-room">
              {!roomInName && room}
              {!device.online && <span className="badge tone-muted">{HOME_MESSAGES.offline}</span>}
            </p>
          )}
        </div>
        <div className="favourite-card-main">
          {view.lock ? (
            <LockControl lock={view.lock} name={name} disabled={disabled} onSend={sendCommand} />
          ) : view.power ? (
            <Switch
              checked={on}
              label={`Power ${name}`}
              disabled={disabled}
              onChange={(next) => send(view.power as Control, next)}
            />
          ) : (
            view.value && (
              <p className="favourite-card-value" data-metric={view.value.property}>
                <span className="visually-hidden">{view.value.label}: </span>
                {view.value.value}
                {view.value.unit && <span className="unit">{view.value.unit}</span>}
              </p>
            )
          )}
        </div>
      </header>
      {view.primary && (
        <div className="favourite-card-control">
          <ControlView
            control={view.primary}
            disabled={disabled}
            onSend={(value) => send(view.primary as Control, value)}
          />
        </div>
      )}
      <footer className="favourite-card-footer">
        {pending && <span className="updating">{MESSAGES.updating}</span>}
        <span className="favourite-card-actions">
          <button
            type="button"
            className="icon-button favourite-card-move"
            aria-label={moveUpLabel(name)}
            disabled={first}
            onClick={() => onMove(deviceId, -1)}
          >
            <ArrowUp size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button favourite-card-move"
            aria-label={moveDownLabel(name)}
            disabled={last}
            onClick={() => onMove(deviceId, 1)}
          >
            <ArrowDown size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button favourite-card-star"
            aria-label={unstarLabel(name)}
            aria-pressed="true"
            onClick={() => onUnstar(deviceId)}
          >
            <Star size={18} fill="currentColor" aria-hidden="true" />
          </button>
        </span>
      </footer>
    </article>
  );
});
