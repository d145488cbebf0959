import { useState } from 'react';
import { VISIBLE_ITEMS } from '../model/controls.js';
import type { Metric } from '../model/metrics.js';
import { ShowMore } from './ShowMore.js';

export function TileMetrics({ metrics }: { metrics: Metric[] }) {
  const [expanded, setExpanded] = useState(false);
  if (metrics.length === 0) return null;
  const shown = expanded ? metrics : metrics.slice(0, VISIBLE_ITEMS);
  return (
    <div className="tile-metrics">
      <dl>
        {shown.map((metric) => (
          <div key={metric.property} className="metric" data-metric={metric.property}>
            <dt>{metric.label}</dt>
            <dd>
              {metric.value}
              {metric.unit && <span className="unit">{metric.unit}</span>}
            </dd>
          </div>
        ))}
      </dl>
      <ShowMore
        total={metrics.length}
        expanded={expanded}
        fewerLabel="Show fewer details"
        onToggle={() => setExpanded(!expanded)}
      />
    </div>
  );
}
