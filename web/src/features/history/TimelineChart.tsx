import { useMemo } from 'react';
import type uPlot from 'uplot';
import { type ChartRange, useChart } from './chart-frame.js';
import type { ChartData, ChartProperty } from './history.model.js';
import { TIMELINE_PALETTE, type Timeline, timelineValueAt } from './timeline.model.js';
import { token } from './use-color-scheme.js';

interface Props extends ChartRange {
  property: ChartProperty;
  timeline: Timeline;
  /** The entries as columns (x in s): the crosshair and drag zoom work on them like the other charts. */
  data: ChartData;
}

/** What browser tests read: the drawn segments and the uPlot instance. */
export type TimelineElement = HTMLDivElement & { uplot?: uPlot; timeline?: Timeline };

const swatch = (property: ChartProperty, colour: number) =>
  property.type === 'boolean'
    ? colour === 1
      ? 'var(--timeline-on)'
      : 'var(--timeline-off)'
    : `var(--timeline-${colour + 1})`;

/**
 * docs/history.md#timelines: an on/off or enum property as coloured bands on the page's shared
 * time axis (uPlot with the bands drawn by hand): the crosshair moves with the other charts and
 * shows "On"/"Off" or the enum value; a drag zooms every chart; gaps stay empty.
 */
export function TimelineChart({ property, timeline, data, from, to, onZoom, syncKey }: Props) {
  const element = useChart<TimelineElement>(
    { from, to, onZoom, syncKey },
    (target, frame) => {
      const { muted } = frame;
      const surface = token('--surface', '#fff');
      const colours =
        property.type === 'boolean'
          ? [token('--timeline-off', '#c3c8d0'), token('--timeline-on', '#d9822b')]
          : Array.from({ length: TIMELINE_PALETTE }, (_, i) => token(`--timeline-${i + 1}`, muted));

      const draw = (u: uPlot) => {
        const { ctx, bbox } = u;
        const right = bbox.left + bbox.width;
        const top = bbox.top + bbox.height * 0.15;
        const height = bbox.height * 0.7;
        ctx.save();
        ctx.beginPath();
        ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
        ctx.clip();
        for (const segment of timeline.segments) {
          const x0 = Math.max(bbox.left, u.valToPos(segment.start / 1000, 'x', true));
          const x1 = Math.min(right, u.valToPos(segment.end / 1000, 'x', true));
          if (x1 < bbox.left || x0 > right) continue;
          ctx.fillStyle = colours[segment.colour] ?? muted;
          // At least a pixel: a short "on" is still seen at a year's scale.
          ctx.fillRect(x0, top, Math.max(1, x1 - x0), height);
          if (segment.changedWithin && timeline.bucketMs > 0) {
            // The bucket the change happened in: striped (where in it is not known).
            const end = Math.min(x1, u.valToPos((segment.start + timeline.bucketMs) / 1000, 'x', true));
            ctx.save();
            ctx.beginPath();
            ctx.rect(x0, top, Math.max(1, end - x0), height);
            ctx.clip();
            ctx.beginPath();
            ctx.strokeStyle = surface;
            ctx.lineWidth = 2 * devicePixelRatio;
            for (let x = x0 - height; x < end; x += 6 * devicePixelRatio) {
              ctx.moveTo(x, top + height);
              ctx.lineTo(x + height, top);
            }
            ctx.stroke();
            ctx.restore();
          }
        }
        ctx.restore();
      };

      // While nothing is hovered, the latest value drawn (the last band's).
      const latest = timeline.segments.at(-1);
      const valueAtCursor = (u: uPlot) => {
        const left = u.cursor.left;
        if (left === undefined || left < 0) return latest?.label ?? '–';
        return timelineValueAt(timeline, u.posToVal(left, 'x') * 1000);
      };

      target.timeline = timeline;
      return {
        options: {
          height: 110,
          series: [
            frame.timeSeries(latest === undefined ? undefined : latest.start / 1000),
            {
              label: property.label,
              stroke: colours[1] ?? muted,
              width: 0,
              points: { show: false },
              paths: () => null,
              value: (u) => valueAtCursor(u),
            },
          ],
          scales: { x: frame.x, y: { range: () => [0, 1] } },
          axes: [
            frame.timeAxis,
            // The same width as the numeric charts' value axis: every chart's time axis lines up.
            {
              stroke: muted,
              grid: { show: false },
              ticks: { show: false },
              values: (_u, ticks) => ticks.map(() => ''),
            },
          ],
          cursor: { ...frame.cursor, y: false, points: { show: false } },
          hooks: { draw: [draw], setSelect: [frame.setSelect] },
        },
        data: [data.x, data.y],
      };
    },
    [property, timeline, data],
  );

  // The key: each value drawn in this range, with its colour.
  const key = useMemo(() => {
    const seen = new Map<string, number>();
    for (const segment of timeline.segments)
      if (!seen.has(segment.label)) seen.set(segment.label, segment.colour);
    return [...seen].sort((a, b) => a[1] - b[1]);
  }, [timeline]);

  return (
    <>
      <div
        className="history-chart history-timeline"
        ref={element}
        data-property={property.path}
        data-points={data.x.length}
        data-segments={timeline.segments.length}
      />
      <ul className="timeline-key">
        {key.map(([label, colour]) => (
          <li key={label}>
            <span
              className="timeline-swatch"
              style={{ background: swatch(property, colour) }}
              aria-hidden="true"
            />
            {label}
          </li>
        ))}
      </ul>
    </>
  );
}
