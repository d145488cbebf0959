import { useId, useState } from 'react';
import { TILE_TEXTS } from '../devices.messages.js';
import { VISIBLE_ITEMS } from '../model/controls.js';
import type { Metric, TileMetric } from '../model/metrics.js';
import { ShowMore } from './ShowMore.js';

function MetricList({ metrics }: { metrics: Metric[] }) {
  return (
    <dl>
      {metrics.map((metric) => (
        <div key={metric.property} className="metric" data-metric={metric.property}>
          <dt>{metric.label}</dt>
          <dd>
            {metric.value}
            {metric.unit && <span className="unit">{metric.unit}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * docs/screens.md#device-tile: the readings, then under "Details" the diagnostics (link quality, a
 * battery device's voltage); the first 5 of them all, then "Show N more" / "Show fewer details".
 */
export function TileMetrics({ metrics }: { metrics: (Metric | TileMetric)[] }) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  if (metrics.length === 0) return null;
  const shown = expanded ? metrics : metrics.slice(0, VISIBLE_ITEMS);
  const isDetail = (metric: Metric | TileMetric) => 'diagnostic' in metric && metric.diagnostic;
  const readings = shown.filter((metric) => !isDetail(metric));
  const details = shown.filter(isDetail);
  return (
    <div className="tile-metrics">
      {readings.length > 0 && <MetricList metrics={readings} />}
      {details.length > 0 && (
        <section className="tile-details" aria-labelledby={detailsId}>
          <h4 id={detailsId}>{TILE_TEXTS.details}</h4>
          <MetricList metrics={details} />
        </section>
      )}
      <ShowMore
        total={metrics.length}
        expanded={expanded}
        fewerLabel="Show fewer details"
        onToggle={() => setExpanded(!expanded)}
      />
    </div>
  );
}
