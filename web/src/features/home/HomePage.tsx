import { isManager } from '@hearth/contracts';
import { useSession } from '../../shared/session/session-context.js';
import { AddDeviceTile } from './AddDeviceTile.js';
import { ClimateTile } from './ClimateTile.js';
import { DeviceCard } from './DeviceCard.js';
import { Greeting } from './Greeting.js';
import { HomeLive } from './home-live.lazy.js';
import { MapTile } from './MapTile.js';
import { Masonry } from './Masonry.js';
import { MusicTile } from './MusicTile.js';
import { WeatherCard } from './WeatherCard.js';
import './home.css';

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
