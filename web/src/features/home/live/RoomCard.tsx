import type { Room } from '@hearth/contracts';
import { Droplet, Power, Thermometer } from 'lucide-react';
import { memo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useDevicesContext } from '../../devices/components/devices-context.js';
import type { DeviceView } from '../../devices/model/device.types.js';
import { RoomIcon } from '../../rooms/RoomIcon.js';
import {
  planRoomAction,
  type RoomActionProgress,
  roomActionSummary,
  runRoomAction,
} from '../../rooms/room-actions.js';
import { SceneButtons } from '../../scenes/SceneButtons.js';
import {
  allOffLabel,
  HOME_MESSAGES,
  roomOnCount,
  showRoomDevicesLabel,
  turningOff,
} from '../home.messages.js';
import type { RoomSummary } from './home-live.model.js';

/** /devices filtered to the room and grouped by room (the Devices page's URL shape). */
export const roomDevicesHref = (roomId: string) => `/devices?room=${encodeURIComponent(roomId)}&group=room`;

/**
 * docs/screens.md#room-cards: a room's name and icon, how many of its lights and switches are on,
 * its climate when it has a sensor, "All off" with progress and a summary, and a link to its devices.
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
  /** False for a `user`: no "All off" (room actions are a resident's or admin's, as on the Devices page). */
  actions?: boolean;
}) {
  const { actions } = useDevicesContext();
  const [progress, setProgress] = useState<RoomActionProgress | null>(null);
  const [running, setRunning] = useState(false);
  const devicesRef = useRef(devices);
  devicesRef.current = devices;

  const allOff = async () => {
    setRunning(true);
    const plan = planRoomAction(devicesRef.current, room.id, false);
    await runRoomAction(plan, (device, command) => actions.deliver(device, command), setProgress);
    setRunning(false);
  };

  const failed = progress !== null && !running && progress.failed.length > 0;
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
        {progress === null
          ? ''
          : running
            ? turningOff(progress.done, progress.total)
            : roomActionSummary(progress, false)}
      </p>
      <SceneButtons roomId={room.id} />
      <footer className="room-card-footer">
        {canAct && (
          <button
            type="button"
            className="button button--secondary button--small"
            aria-label={allOffLabel(room.name)}
            aria-busy={running}
            disabled={running}
            onClick={() => void allOff()}
          >
            {running && <span className="spinner room-card-spinner" aria-hidden="true" />}
            {HOME_MESSAGES.allOff}
          </button>
        )}
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
