import { isManager } from '@hearth/contracts';
import { useSession } from '../../shared/session/session-context.js';
import { loadable } from '../../shared/ui/loadable.js';
import { AddDeviceTile } from './AddDeviceTile.js';
import { ClimateTile } from './ClimateTile.js';
import { DeviceCard } from './DeviceCard.js';
import { Greeting } from './Greeting.js';
import { MapTile } from './MapTile.js';
import { Masonry } from './Masonry.js';
import { MusicTile } from './MusicTile.js';
import { WeatherCard } from './WeatherCard.js';
import './home.css';

// docs/screens.md#favourites-and-rooms: only residents and admins load it (it brings the device hub).
const HomeLive = loadable(() => import('./live/HomeLive.js'));

/** docs/screens.md#home: the dashboard home. */
export function HomePage() {
  const { user } = useSession();
  return (
    <>
      <Greeting user={user} />
      {isManager(user?.role) && <HomeLive />}
      <Masonry>
        <WeatherCard />
        <DeviceCard />
        <MusicTile />
        <ClimateTile />
        <MapTile />
        <AddDeviceTile />
      </Masonry>
    </>
  );
}
