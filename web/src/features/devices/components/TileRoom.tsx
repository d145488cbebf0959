import type { Room } from '@hearth/contracts';
import { ChevronDown, DoorOpen, Star } from 'lucide-react';
import { memo } from 'react';
import { useToast } from '../../../shared/toast/toast-context.js';
import { roomNamed } from '../../rooms/rooms-state.js';
import {
  acceptSuggestion,
  favouriteLabel,
  MESSAGES,
  moveToRoomOf,
  roomOf,
  suggestedRoom,
} from '../devices.messages.js';
import { useIsFavourite, useMoveDevices } from '../hooks/use-assign.js';
import type { DeviceView } from '../model/device.types.js';
import { useDevicesContext } from './devices-context.js';
import { RoomPicker } from './RoomPicker.js';
import './rooms-assign.css';

/** The parts of a device (with an id) its room row shows. */
export type RoomedDevice = Pick<DeviceView, 'displayName' | 'roomId' | 'suggestedRoom'> & { id: string };

/**
 * docs/rooms.md#on-the-devices-page: the tile's room (its name) and its suggestion ("Suggested:
 * Kitchen", Accept) while it has one. Moving it and the favourite star are in the tile's menu
 * (TileRoomPicker, TileStar below). Only for devices with an id. It takes the device's parts it
 * shows, not the device, so a state message does not render it again.
 */
export const TileRoom = memo(function TileRoom({
  device,
  rooms,
  canMove = true,
}: {
  device: RoomedDevice;
  rooms: Room[];
  /** docs/access.md: false for a device the viewer may only view (no suggestion to accept). */
  canMove?: boolean;
}) {
  const move = useMoveDevices();
  const room = device.roomId ? rooms.find((candidate) => candidate.id === device.roomId) : undefined;
  const roomName = room?.name ?? MESSAGES.unassigned;
  const suggestion = canMove && !device.roomId && device.suggestedRoom ? device.suggestedRoom : null;

  return (
    <div className="tile-room">
      <span className="tile-room-name">
        <DoorOpen size={14} aria-hidden="true" />
        {roomName}
      </span>
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
    </div>
  );
});

/** In the tile's menu: the room menu ("Room of {name}: {room}", docs/rooms.md#room-menu). */
export const TileRoomPicker = memo(function TileRoomPicker({
  device,
  rooms,
}: {
  device: RoomedDevice;
  rooms: Room[];
}) {
  const move = useMoveDevices();
  const room = device.roomId ? rooms.find((candidate) => candidate.id === device.roomId) : undefined;
  const roomName = room?.name ?? MESSAGES.unassigned;
  return (
    <RoomPicker
      rooms={rooms}
      current={device.roomId}
      label={roomOf(device.displayName, roomName)}
      menuLabel={moveToRoomOf(device.displayName)}
      buttonClassName="popover-item"
      onPick={(target) => void move(target, [device.id])}
    >
      <DoorOpen size={16} aria-hidden="true" />
      <span className="room-button-name">{roomName}</span>
      <ChevronDown size={14} aria-hidden="true" />
    </RoomPicker>
  );
});

/**
 * In the tile's menu: the favourite star, named after the device ("Add Hallway lamp to
 * favourites"), as home's card names its own.
 */
export const TileStar = memo(function TileStar({ deviceId, name }: { deviceId: string; name: string }) {
  const { rooms: hub } = useDevicesContext();
  const { showToast } = useToast();
  const starred = useIsFavourite(hub?.favourites, deviceId);
  if (!hub) return null;
  return (
    <button
      type="button"
      className={`popover-item tile-star${starred ? ' is-starred' : ''}`}
      data-closes-menu
      onClick={() => void hub.favourites.toggle(deviceId).then((error) => error && showToast(error))}
    >
      <Star size={16} aria-hidden="true" fill={starred ? 'currentColor' : 'none'} />
      {/* Its words are its name (label in name): "Add Hallway lamp to favourites". */}
      <span>{favouriteLabel(starred, name)}</span>
    </button>
  );
});
