import { useEffect, useRef } from 'react';
import { AddDeviceTile } from './AddDeviceTile.js';
import { ClimateTile } from './ClimateTile.js';
import { DeviceCard } from './DeviceCard.js';
import { HOME_MESSAGES } from './home.messages.js';
import { MapTile } from './MapTile.js';
import { Masonry } from './Masonry.js';
import { MusicTile } from './MusicTile.js';
import type { ExamplesChoice } from './use-examples.js';
import { WeatherCard } from './WeatherCard.js';

/**
 * docs/screens.md#examples: SPEC's sample tiles, exactly as SPEC gives them, under the heading
 * "Examples" with "Hide examples" (a signed-in person's choice, remembered for them); once hidden,
 * "Show examples" brings them back. The button pressed hands the keyboard focus to the other one.
 */
export function Examples({ choice, signedIn }: { choice: ExamplesChoice; signedIn: boolean }) {
  const toggle = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each hide or show, when the other button is drawn
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    toggle.current?.focus();
  }, [choice.hidden]);
  const set = (hidden: boolean) => {
    moved.current = true;
    choice.setHidden(hidden);
  };

  if (!choice.known) return null;
  if (choice.hidden) {
    return (
      <div className="home-examples-hidden">
        <button
          ref={toggle}
          type="button"
          className="button button--ghost button--small"
          onClick={() => set(false)}
        >
          {HOME_MESSAGES.showExamples}
        </button>
      </div>
    );
  }
  return (
    <section className="home-section home-examples" aria-labelledby="home-examples">
      <div className="home-section-head">
        <h2 id="home-examples" className="home-section-title">
          {HOME_MESSAGES.examplesHeading}
        </h2>
        {signedIn && (
          <button
            ref={toggle}
            type="button"
            className="button button--ghost button--small"
            onClick={() => set(true)}
          >
            {HOME_MESSAGES.hideExamples}
          </button>
        )}
      </div>
      <Masonry>
        <WeatherCard />
        <DeviceCard />
        <MusicTile />
        <ClimateTile />
        <MapTile />
        <AddDeviceTile />
      </Masonry>
    </section>
  );
}
