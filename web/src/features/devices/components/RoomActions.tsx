import type { Room } from '@hearth/contracts';
import { useState } from 'react';
import {
  planRoomAction,
  type RoomActionProgress,
  roomActionFell,
  roomActionSummary,
  runConfirmedRoomAction,
} from '../../rooms/room-actions.js';
import { roomActionLabel, roomActionProgress, TOOLBAR } from '../devices.messages.js';
import type { DeviceView } from '../model/device.types.js';
import { useDevicesContext } from './devices-context.js';

type Run = { on: boolean; progress: RoomActionProgress; finished: boolean };

/**
 * docs/screens.md#room-actions: "All off" / "All on" for the room's lights and switches (all of
 * them, whatever the filter shows) in one call that counts a device as done only when its state
 * confirms it; the progress while it runs, and what did not respond, was offline or failed once done.
 */
export function RoomActions({ room }: { room: Room }) {
  const { store, actions } = useDevicesContext();
  const [run, setRun] = useState<Run | null>(null);
  const running = run !== null && !run.finished;
  const start = async (on: boolean) => {
    const devices = store
      .getIds()
      .map((id) => store.getDevice(id))
      .filter((device): device is DeviceView => device !== undefined);
    const plan = planRoomAction(devices, room.id, on);
    const progress = await runConfirmedRoomAction(plan, actions.sendAll, (next) =>
      setRun({ on, progress: next, finished: false }),
    );
    setRun({ on, progress, finished: true });
  };
  return (
    <div className="room-actions">
      <button
        type="button"
        className="button button--secondary button--compact"
        aria-label={roomActionLabel(false, room.name)}
        disabled={running}
        onClick={() => void start(false)}
      >
        {TOOLBAR.allOff}
      </button>
      <button
        type="button"
        className="button button--secondary button--compact"
        aria-label={roomActionLabel(true, room.name)}
        disabled={running}
        onClick={() => void start(true)}
      >
        {TOOLBAR.allOn}
      </button>
      <span
        className={`room-action-status${run?.finished && roomActionFell(run.progress) ? ' is-failed' : ''}`}
        role="status"
      >
        {run &&
          (run.finished
            ? roomActionSummary(run.progress, run.on)
            : roomActionProgress(run.on, run.progress.done, run.progress.total))}
      </span>
    </div>
  );
}
