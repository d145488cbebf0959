import { isManager } from '@hearth/contracts';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/session-context.js';
import { useToast } from '../../../shared/toast/toast-context.js';
import { type DeviceListResult, fetchDevicesByIds } from '../../devices/api/devices.api.js';
import { DevicesContext, useDevicesContext } from '../../devices/components/devices-context.js';
import { useDeviceHub } from '../../devices/hooks/use-device-hub.js';
import { useHubStatus } from '../../devices/hooks/use-device-store.js';
import { type RoomsHub, useFavourites, useRooms } from '../../rooms/use-rooms.js';
import { SceneButtons } from '../../scenes/SceneButtons.js';
import { HOME_MESSAGES } from '../home.messages.js';
import { FavouriteCard } from './FavouriteCard.js';
import type { LiveContent } from './live-content.js';
import { RoomCard } from './RoomCard.js';
import { useRoomSummaries } from './use-room-summaries.js';
import '../../devices/devices.css';
import './home-live.css';

interface Props {
  /** Told whether there is anything to show, whenever that changes (docs/screens.md#examples). */
  onContent?(content: LiveContent): void;
}

/**
 * docs/screens.md#favourites-and-rooms: the signed-in person's favourites and rooms, live over the
 * device stream (the Devices page's hub: one stream, one store for every card). A resident's or
 * admin's, or a `user`'s whose access rules show them devices (their rooms are those holding such
 * a device, docs/roles.md). Loaded lazily, so signed-out visitors never fetch its code.
 */
export default function HomeLive({ onContent }: Props) {
  const { user, accessToken } = useSession();
  const roomsRef = useRef<RoomsHub | null>(null);
  // The favourites' devices come first, by id, and are drawn while the whole list (megabytes
  // for thousands of devices, which the room cards need) is fetched after them.
  const favouritesFirst = useCallback(async (): Promise<DeviceListResult> => {
    const favourites = roomsRef.current?.favourites;
    if (!favourites) return { ok: true, devices: [] };
    await favourites.load();
    const ids = favourites.getSnapshot().ids;
    return ids.length > 0 ? fetchDevicesByIds(ids) : { ok: true, devices: [] };
  }, []);
  const hub = useDeviceHub({
    enabled: user !== null,
    accessToken,
    username: user ? user.user_name || user.email : null,
    userId: user?.id ?? null,
    firstScreen: favouritesFirst,
  });
  roomsRef.current = hub.rooms;
  // A `user` controls within their rules but runs no room actions (as on the Devices page).
  const manager = isManager(user?.role);
  const value = useMemo(() => ({ ...hub, manager }), [hub, manager]);
  return (
    <DevicesContext.Provider value={value}>
      <HomeSections onContent={onContent} />
    </DevicesContext.Provider>
  );
}

function HomeSections({ onContent }: Props) {
  const { store, rooms: hub, manager = true } = useDevicesContext();
  if (!hub) throw new Error('HomeSections needs the rooms hub');
  const rooms = useRooms(hub.rooms);
  const favourites = useFavourites(hub.favourites);
  const { devices, summaries } = useRoomSummaries(store, rooms.rooms);
  const roomNames = useMemo(() => new Map(rooms.rooms.map((room) => [room.id, room.name])), [rooms.rooms]);
  const roomName = useCallback(
    (id: string | null) => (id === null ? null : (roomNames.get(id) ?? null)),
    [roomNames],
  );
  const known = useMemo(() => new Set(devices.map((device) => device.key)), [devices]);
  // Favourites the store does not hold yet (the list is still loading) wait for it.
  const shown = favourites.ids.filter((id) => known.has(id));
  const toast = useToast();
  const focusAfterMove = useRef<{ id: string; delta: number } | null>(null);
  const sectionRef = useRef<HTMLElement>(null);

  const onMove = useCallback(
    (id: string, delta: number) => {
      focusAfterMove.current = { id, delta };
      void hub.favourites.move(id, delta).then((error) => error && toast.showToast(error));
    },
    [hub, toast],
  );
  const onUnstar = useCallback(
    (id: string) => void hub.favourites.toggle(id).then((error) => error && toast.showToast(error)),
    [hub, toast],
  );

  // The moved card's button keeps the focus (its node moved); at an end, the other move button takes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each new order
  useLayoutEffect(() => {
    const wanted = focusAfterMove.current;
    if (!wanted || !sectionRef.current) return;
    focusAfterMove.current = null;
    const card = sectionRef.current.querySelector(`[data-device-id="${CSS.escape(wanted.id)}"]`);
    const buttons = card?.querySelectorAll<HTMLButtonElement>('.favourite-card-move');
    if (!buttons) return;
    const [up, down] = [buttons[0], buttons[1]];
    const preferred = wanted.delta < 0 ? up : down;
    (preferred && !preferred.disabled ? preferred : wanted.delta < 0 ? down : up)?.focus();
  }, [favourites.ids]);

  const { loading } = useHubStatus(store);
  const read = rooms.loaded && favourites.loaded;
  const content: LiveContent = !read
    ? 'pending'
    : favourites.ids.length > 0 || rooms.rooms.length > 0 || devices.length > 0
      ? 'some'
      : loading
        ? 'pending'
        : 'none';
  useEffect(() => onContent?.(content), [content, onContent]);

  if (!read) return null;
  if (favourites.ids.length === 0 && rooms.rooms.length === 0) {
    // A `user` cannot star devices or make rooms: the hint is a resident's or admin's.
    if (!manager) return null;
    return (
      <p className="home-hint">
        {HOME_MESSAGES.hintBefore}
        <Link to="/devices">{HOME_MESSAGES.hintLink}</Link>
        {HOME_MESSAGES.hintAfter}
      </p>
    );
  }
  return (
    <>
      {shown.length > 0 && (
        <section className="home-section" aria-labelledby="home-favourites" ref={sectionRef}>
          <h2 id="home-favourites" className="home-section-title">
            {HOME_MESSAGES.favouritesHeading}
          </h2>
          <SceneButtons roomId={null} />
          <div className="favourite-grid">
            {shown.map((id, index) => (
              <FavouriteCard
                key={id}
                deviceId={id}
                roomName={roomName}
                first={index === 0}
                last={index === shown.length - 1}
                onMove={onMove}
                onUnstar={onUnstar}
              />
            ))}
          </div>
        </section>
      )}
      {rooms.rooms.length > 0 && (
        <section className="home-section" aria-labelledby="home-rooms">
          <h2 id="home-rooms" className="home-section-title">
            {HOME_MESSAGES.roomsHeading}
          </h2>
          <div className="room-grid">
            {rooms.rooms.map((room) => (
              <RoomCard
                key={room.id}
                room={room}
                summary={summaries.get(room.id) ?? { on: 0, temperature: null, humidity: null }}
                devices={devices}
                actions={manager}
              />
            ))}
          </div>
        </section>
      )}
    </>
  );
}
