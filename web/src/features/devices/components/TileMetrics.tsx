import { useId, useState } from 'react';
import { SOURCE_TEXTS, TILE_TEXTS } from '../devices.messages.js';
import { VISIBLE_ITEMS } from '../model/controls.js';
import type { CapabilityError, Metric, TileMetric } from '../model/metrics.js';
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
export function TileMetrics({
  metrics,
  errors = [],
}: {
  metrics: (Metric | TileMetric)[];
  /** For admins: the capabilities whose last value could not be read, and why (docs/screens.md#devices-of-other-sources). */
  errors?: CapabilityError[];
}) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  if (metrics.length === 0 && errors.length === 0) return null;
  const shown = expanded ? metrics : metrics.slice(0, VISIBLE_ITEMS);
  const isDetail = (metric: Metric | TileMetric) => 'diagnostic' in metric && metric.diagnostic;
  const readings = shown.filter((metric) => !isDetail(metric));
  const details = shown.filter(isDetail);
  return (
    <div className="tile-metrics">
      {readings.length > 0 && <MetricList metrics={readings} />}
      {(details.length > 0 || errors.length > 0) && (
        <section className="tile-details" aria-labelledby={detailsId}>
          <h4 id={detailsId}>{TILE_TEXTS.details}</h4>
          {errors.length > 0 && (
            <dl className="tile-errors">
              {errors.map((error) => (
                <div key={error.property} className="metric tone-danger" data-error={error.property}>
                  <dt>{SOURCE_TEXTS.errorOf(error.label)}</dt>
                  <dd>{error.error}</dd>
                </div>
              ))}
            </dl>
          )}
          {details.length > 0 && <MetricList metrics={details} />}
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
