import type { Room } from '@hearth/contracts';
import { ChevronDown, DoorOpen, Star } from 'lucide-react';
import { memo } from 'react';
import { useToast } from '../../../shared/toast/toast-context.js';
import { roomNamed } from '../../rooms/rooms-state.js';
import { acceptSuggestion, MESSAGES, moveToRoomOf, roomOf, suggestedRoom } from '../devices.messages.js';
import { useIsFavourite, useMoveDevices } from '../hooks/use-assign.js';
import type { DeviceView } from '../model/device.types.js';
import { useDevicesContext } from './devices-context.js';
import { RoomPicker } from './RoomPicker.js';
import './rooms-assign.css';

/** The parts of a device (with an id) its room row shows. */
export type RoomedDevice = Pick<DeviceView, 'displayName' | 'roomId' | 'suggestedRoom'> & { id: string };

/**
 * docs/rooms.md#on-the-devices-page: the tile's room menu, its suggestion ("Suggested: Kitchen",
 * Accept) while it has one, and the favourite star. Only for devices with an id. It takes the
 * device's parts it shows, not the device, so a state message does not render it again.
 */
export const TileRoom = memo(function TileRoom({
  device,
  rooms,
  canMove = true,
  canStar = true,
}: {
  device: RoomedDevice;
  rooms: Room[];
  /** docs/access.md: false for a device the viewer may only view (its room shows, not its menu). */
  canMove?: boolean;
  /** False for a `user` (no favourites for them, docs/screens.md#devices-for-a-user). */
  canStar?: boolean;
}) {
  const { rooms: hub } = useDevicesContext();
  const move = useMoveDevices();
  const { showToast } = useToast();
  const starred = useIsFavourite(canStar ? hub?.favourites : undefined, device.id);
  const room = device.roomId ? rooms.find((candidate) => candidate.id === device.roomId) : undefined;
  const roomName = room?.name ?? MESSAGES.unassigned;
  const suggestion = canMove && !device.roomId && device.suggestedRoom ? device.suggestedRoom : null;

  return (
    <div className="tile-room">
      {canMove ? (
        <RoomPicker
          rooms={rooms}
          current={device.roomId}
          label={roomOf(device.displayName, roomName)}
          menuLabel={moveToRoomOf(device.displayName)}
          onPick={(target) => void move(target, [device.id])}
        >
          <DoorOpen size={14} aria-hidden="true" />
          <span className="room-button-name">{roomName}</span>
          <ChevronDown size={14} aria-hidden="true" />
        </RoomPicker>
      ) : (
        <span className="tile-room-name">
          <DoorOpen size={14} aria-hidden="true" />
          {roomName}
        </span>
      )}
      {suggestion && (
        <span className="tile-suggestion">
          <span className="pill tone-muted">{suggestedRoom(suggestion)}</span>
          <button
            type="button"
            className="button button--secondary button--compact"
            aria-label={acceptSuggestion(device.displayName, suggestion)}
            onClick={() => {
              const existing = roomNamed(rooms, suggestion);
              void move(existing ? { roomId: existing.id } : { newRoom: suggestion }, [device.id]);
            }}
          >
            {MESSAGES.accept}
          </button>
        </span>
      )}
      {hub && canStar && (
        <button
          type="button"
          className={`icon-button icon-button--bare tile-star${starred ? ' is-starred' : ''}`}
          aria-label={starred ? MESSAGES.removeFavourite : MESSAGES.addFavourite}
          onClick={() => void hub.favourites.toggle(device.id).then((error) => error && showToast(error))}
        >
          <Star size={16} aria-hidden="true" fill={starred ? 'currentColor' : 'none'} />
        </button>
      )}
    </div>
  );
});
