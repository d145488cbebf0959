import { memo, useMemo, useRef } from 'react';
import { useSparkline } from '../hooks/use-sparkline.js';
import type { CapabilityReading } from '../model/device.types.js';
import { formatMetricNumber } from '../model/format.js';
import { sparklineMetric, sparklinePath } from '../model/sparkline.js';

const WIDTH = 100;
const HEIGHT = 40;

/**
 * docs/history.md#sparklines: the last 24 h of the tile's main numeric metric, a line with its
 * label and range above it ("Temperature · last 24 h", "19.6–21.2 °C"), loaded when the tile is on
 * screen; nothing when nothing is recorded.
 */
export const TileSparkline = memo(function TileSparkline({
  deviceId,
  capabilities,
  name,
}: {
  deviceId: string | null;
  capabilities: CapabilityReading[];
  name: string;
}) {
  const metric = useMemo(() => sparklineMetric(capabilities), [capabilities]);
  if (!deviceId || !metric) return null;
  return (
    <Sparkline
      deviceId={deviceId}
      property={metric.property}
      label={metric.label}
      unit={metric.unit}
      name={name}
    />
  );
});

const Sparkline = memo(function Sparkline({
  deviceId,
  property,
  label,
  unit,
  name,
}: {
  deviceId: string;
  property: string;
  label: string;
  unit: string;
  name: string;
}) {
  const element = useRef<HTMLDivElement>(null);
  const data = useSparkline(element, deviceId, property);
  const drawn = useMemo(() => {
    if (!data) return null;
    const path = sparklinePath(data, data.from, data.to, WIDTH, HEIGHT);
    if (!path) return null;
    const values = data.y.filter((y): y is number => y !== null);
    return { path, min: Math.min(...values), max: Math.max(...values) };
  }, [data]);

  const suffix = unit ? ` ${unit}` : '';
  // Until the first answer the tile keeps the line's room (an empty caption and box of the same
  // size): a tile growing when its line arrives moves every tile below it, under a finger or a click.
  if (data === undefined)
    return (
      <div ref={element} className="tile-sparkline" data-sparkline={property} data-state="loading">
        <p className="tile-sparkline-caption" aria-hidden="true">
          {'\u00a0'}
        </p>
        <div className="tile-sparkline-room" />
      </div>
    );
  return (
    <div
      ref={element}
      className="tile-sparkline"
      data-sparkline={property}
      data-state={drawn ? 'line' : 'none'}
      data-points={data?.x.length ?? 0}
    >
      {drawn && (
        <p className="tile-sparkline-caption" aria-hidden="true">
          <span>{label} · last 24 h</span>
          <span>
            {formatMetricNumber(drawn.min)}–{formatMetricNumber(drawn.max)}
            {suffix}
          </span>
        </p>
      )}
      {drawn && (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${name} ${label}, last 24 h: ${formatMetricNumber(drawn.min)}–${formatMetricNumber(drawn.max)}${suffix}`}
        >
          <path d={drawn.path} vectorEffect="non-scaling-stroke" />
        </svg>
      )}
    </div>
  );
});
