import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useRef, useState } from 'react';
import { ARROW_SCROLL_PX, dragScrollLeft } from './drag-scroll.js';
import { WeatherIcon } from './WeatherIcon.js';
import { CURRENT_WEATHER, TODAY, WEEK } from './weather.sample.js';

type Tab = 'today' | 'week';

/** docs/screens.md#home: the weather card with its Today / Week forecast row. */
export function WeatherCard() {
  const [tab, setTab] = useState<Tab>('today');
  const row = useRef<HTMLUListElement>(null);
  const drag = useRef<{ x: number; scroll: number } | null>(null);
  const items = tab === 'today' ? TODAY : WEEK;

  const scrollBy = (dx: number) => row.current?.scrollBy({ left: dx, behavior: 'smooth' });

  const onMouseDown = (event: React.MouseEvent) => {
    if (!row.current || event.button !== 0) return;
    drag.current = { x: event.clientX, scroll: row.current.scrollLeft };
    const onMove = (move: MouseEvent) => {
      if (row.current && drag.current) {
        row.current.scrollLeft = dragScrollLeft(drag.current.scroll, move.clientX - drag.current.x);
      }
    };
    const onUp = () => {
      drag.current = null;
      window.removeEventListener('mousemove', onMove);
      window.removeEventListener('mouseup', onUp);
    };
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
    event.preventDefault();
  };

  return (
    <article className="tile weather" aria-labelledby="weather-title">
      <div className="weather-now">
        <div>
          <h3 id="weather-title" className="tile-label">
            {CURRENT_WEATHER.location}
          </h3>
          <p className="weather-temp">{CURRENT_WEATHER.temp}°C</p>
          <p className="weather-desc">{CURRENT_WEATHER.description}</p>
          <p className="weather-range">
            H: {CURRENT_WEATHER.high}°C · L: {CURRENT_WEATHER.low}°C
          </p>
        </div>
        <WeatherIcon kind={CURRENT_WEATHER.icon} size={56} />
      </div>
      <div className="weather-tabs" role="tablist" aria-label="Forecast">
        {(['today', 'week'] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className="chip"
            onClick={() => {
              setTab(id);
              row.current?.scrollTo({ left: 0 });
            }}
          >
            {id === 'today' ? 'Today' : 'Week'}
          </button>
        ))}
      </div>
      <div className="forecast">
        <button
          type="button"
          className="icon-button forecast-arrow"
          aria-label="Scroll forecast left"
          onClick={() => scrollBy(-ARROW_SCROLL_PX)}
        >
          <ChevronLeft size={20} aria-hidden="true" />
        </button>
        <ul
          ref={row}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable row must be reachable by keyboard (arrow keys scroll it)
          tabIndex={0}
          className="forecast-row"
          onMouseDown={onMouseDown}
          aria-label={tab === 'today' ? 'Today' : 'Week'}
        >
          {items.map((item) => (
            <li key={item.hour ?? item.day} className="forecast-item">
              <span className="forecast-when">{item.hour ?? item.day}</span>
              <WeatherIcon kind={item.icon} size={24} />
              <span className="forecast-temp">{item.temp}°C</span>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="icon-button forecast-arrow"
          aria-label="Scroll forecast right"
          onClick={() => scrollBy(ARROW_SCROLL_PX)}
        >
          <ChevronRight size={20} aria-hidden="true" />
        </button>
      </div>
    </article>
  );
}
