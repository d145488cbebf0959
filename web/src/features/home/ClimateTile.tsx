import { Droplet, Thermometer } from 'lucide-react';

/** docs/screens.md#home: the static climate-sensor demo tile. */
export function ClimateTile() {
  return (
    <article className="tile climate" aria-label="Bedroom Sensor">
      <span className="climate-icon">
        <Thermometer size={28} aria-hidden="true" />
      </span>
      <p className="climate-temp">21°C</p>
      <p className="climate-humidity">
        <Droplet size={16} aria-hidden="true" /> 48% Humidity
      </p>
      <h3 className="climate-name">Bedroom Sensor</h3>
    </article>
  );
}
