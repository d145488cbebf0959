import { useNavigate } from 'react-router';
import floorPlan from './floor-plan.svg';

/** docs/screens.md#home: the map tile; its ">" opens the map page. */
export function MapTile() {
  const navigate = useNavigate();
  return (
    <article className="tile map-tile" aria-label="Map">
      <img src={floorPlan} alt="Floor plan of the apartment" width={320} height={200} className="map-image" />
      <div className="map-footer">
        <span className="tile-label">MAP</span>
        <button type="button" className="icon-button" aria-label="Open map" onClick={() => navigate('/map')}>
          <span aria-hidden="true">&gt;</span>
        </button>
      </div>
    </article>
  );
}
