import { Music, Pause, Play, SkipBack, SkipForward } from 'lucide-react';
import { useState } from 'react';
import { MUSIC_PROVIDER } from '../../shared/music-provider.js';

const TRACK = { title: 'Midnight City', artist: 'M83', progress: 84, duration: 243 };

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** docs/screens.md#home: the static music-player demo tile. */
export function MusicTile() {
  const [playing, setPlaying] = useState(false);
  const percent = Math.round((TRACK.progress / TRACK.duration) * 100);
  return (
    <article className="tile music" aria-labelledby="music-title">
      <p className="tile-label">
        <Music size={16} aria-hidden="true" /> {MUSIC_PROVIDER.name}
      </p>
      <h3 id="music-title" className="music-title">
        {TRACK.title}
      </h3>
      <p className="music-artist">{TRACK.artist}</p>
      <div
        className="progress"
        role="progressbar"
        aria-label="Playback progress"
        aria-valuemin={0}
        aria-valuemax={TRACK.duration}
        aria-valuenow={TRACK.progress}
        aria-valuetext={`${clock(TRACK.progress)} of ${clock(TRACK.duration)}`}
      >
        <span className="progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="music-time">
        <span>{clock(TRACK.progress)}</span>
        <span>{clock(TRACK.duration)}</span>
      </p>
      <div className="music-controls">
        <button type="button" className="icon-button" aria-label="Previous">
          <SkipBack size={20} aria-hidden="true" />
        </button>
        <button
          type="button"
          className="icon-button icon-button--primary"
          aria-label={playing ? 'Pause' : 'Play'}
          onClick={() => setPlaying((value) => !value)}
        >
          {playing ? <Pause size={22} aria-hidden="true" /> : <Play size={22} aria-hidden="true" />}
        </button>
        <button type="button" className="icon-button" aria-label="Next">
          <SkipForward size={20} aria-hidden="true" />
        </button>
      </div>
    </article>
  );
}
