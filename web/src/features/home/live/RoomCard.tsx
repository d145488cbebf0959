import type { Room } from '@hearth/contracts';
import { Droplet, Power, Thermometer } from 'lucide-react';
import { memo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useDevicesContext } from '../../devices/components/devices-context.js';
import { roomActionLabel, roomActionProgress, TOOLBAR } from '../../devices/devices.messages.js';
import type { DeviceView } from '../../devices/model/device.types.js';
import { RoomIcon } from '../../rooms/RoomIcon.js';
import {
  planRoomAction,
  type RoomActionProgress,
  roomActionFell,
  roomActionSummary,
  runConfirmedRoomAction,
} from '../../rooms/room-actions.js';
import { SceneButtons } from '../../scenes/SceneButtons.js';
import { HOME_MESSAGES, roomOnCount, showRoomDevicesLabel } from '../home.messages.js';
import type { RoomSummary } from './home-live.model.js';

/** /devices filtered to the room and grouped by room (the Devices page's URL shape). */
export const roomDevicesHref = (roomId: string) => `/devices?room=${encodeURIComponent(roomId)}&group=room`;

type Run = { on: boolean; progress: RoomActionProgress; finished: boolean };

/**
 * docs/screens.md#room-cards: a room's name and icon, how many of its lights and switches are on,
 * its climate when it has a sensor, "All off" / "All on" with progress and a summary, and a link
 * to its devices. A room action is the Devices page's (docs/screens.md#room-actions): one
 * confirmed call, a device done only when its state says so, the rest named.
 */
export const RoomCard = memo(function RoomCard({
  room,
  summary,
  devices,
  actions: canAct = true,
}: {
  room: Room;
  summary: RoomSummary;
  /** Every device the page holds (the plan takes this room's lights and switches). */
  devices: DeviceView[];
  /** False for a `user`: no "All off" / "All on" (room actions are a resident's or admin's, as on the Devices page). */
  actions?: boolean;
}) {
  const { actions } = useDevicesContext();
  const [run, setRun] = useState<Run | null>(null);
  const running = run !== null && !run.finished;
  const devicesRef = useRef(devices);
  devicesRef.current = devices;

  const start = async (on: boolean) => {
    const plan = planRoomAction(devicesRef.current, room.id, on);
    const progress = await runConfirmedRoomAction(plan, actions.sendAll, (next) =>
      setRun({ on, progress: next, finished: false }),
    );
    setRun({ on, progress, finished: true });
  };

  const failed = run?.finished === true && roomActionFell(run.progress);
  return (
    <article className="room-card" aria-label={room.name} data-room-id={room.id}>
      <header className="room-card-header">
        <span className="icon-badge room-icon" aria-hidden="true">
          <RoomIcon icon={room.icon} size={22} />
        </span>
        <h3 className="room-card-name" title={room.name}>
          {room.name}
        </h3>
      </header>
      <dl className="room-card-facts">
        <div className="room-card-fact" data-fact="on">
          <dt>
            <Power size={14} aria-hidden="true" />
            <span className="visually-hidden">{HOME_MESSAGES.lightsOn}</span>
          </dt>
          <dd>{roomOnCount(summary.on)}</dd>
        </div>
        {summary.temperature !== null && (
          <div className="room-card-fact" data-fact="temperature">
            <dt>
              <Thermometer size={14} aria-hidden="true" />
              <span className="visually-hidden">{HOME_MESSAGES.temperature}</span>
            </dt>
            <dd>{summary.temperature}°C</dd>
          </div>
        )}
        {summary.humidity !== null && (
          <div className="room-card-fact" data-fact="humidity">
            <dt>
              <Droplet size={14} aria-hidden="true" />
              <span className="visually-hidden">{HOME_MESSAGES.humidity}</span>
            </dt>
            <dd>{summary.humidity}%</dd>
          </div>
        )}
      </dl>
      <p className={`room-card-status${failed ? ' tone-danger' : ''}`} role="status">
        {run === null
          ? ''
          : running
            ? roomActionProgress(run.on, run.progress.done, run.progress.total)
            : roomActionSummary(run.progress, run.on)}
      </p>
      <SceneButtons roomId={room.id} />
      <footer className="room-card-footer">
        {canAct &&
          [false, true].map((on) => (
            <button
              key={String(on)}
              type="button"
              className="button button--secondary button--small"
              aria-label={roomActionLabel(on, room.name)}
              aria-busy={running && run?.on === on}
              disabled={running}
              onClick={() => void start(on)}
            >
              {running && run?.on === on && <span className="spinner room-card-spinner" aria-hidden="true" />}
              {on ? TOOLBAR.allOn : TOOLBAR.allOff}
            </button>
          ))}
        <Link
          className="room-card-link"
          to={roomDevicesHref(room.id)}
          aria-label={showRoomDevicesLabel(room.name)}
        >
          {HOME_MESSAGES.showDevices}
        </Link>
      </footer>
    </article>
  );
});
