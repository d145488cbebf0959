import uPlot from 'uplot';
import { type ChartRange, useChart } from './chart-frame.js';
import type { ChartData, ChartProperty } from './history.model.js';
import { token } from './use-color-scheme.js';

interface Props extends ChartRange {
  property: ChartProperty;
  data: ChartData;
}

/**
 * One property's chart (uPlot): a line for numbers with the min/max band when bucketed, steps for
 * on/off and enum values; gaps (nulls) break the line. Drag to zoom; the legend shows the values
 * under the crosshair.
 */
export function HistoryChart({ property, data, from, to, onZoom, syncKey }: Props) {
  const element = useChart(
    { from, to, onZoom, syncKey },
    (_target, frame) => {
      const { muted } = frame;
      const accent = token('--accent', '#d97706');
      const stepped = property.type !== 'number';
      const unit = property.unit ? ` ${property.unit}` : '';
      const format = (value: number | null) => {
        if (value === null || value === undefined) return '–';
        if (property.type === 'boolean') return value ? 'on' : 'off';
        if (property.type === 'string') return property.values?.[value] ?? String(value);
        return `${Math.round(value * 100) / 100}${unit}`;
      };
      const series: uPlot.Series[] = [
        {},
        {
          label: property.label,
          stroke: accent,
          width: 2,
          spanGaps: false,
          value: (_u, value) => format(value),
          ...(stepped ? { paths: uPlot.paths.stepped?.({ align: 1 }), fill: `${accent}33` } : {}),
        },
      ];
      const columns: uPlot.AlignedData = [data.x, data.y];
      if (data.min && data.max && property.type === 'number') {
        series.push(
          { label: 'min', stroke: muted, width: 1, dash: [4, 4], value: (_u, v) => format(v) },
          { label: 'max', stroke: muted, width: 1, dash: [4, 4], value: (_u, v) => format(v) },
        );
        columns.push(data.min, data.max);
      }
      return {
        options: {
          height: stepped ? 120 : 220,
          series,
          ...(data.min && data.max && property.type === 'number'
            ? { bands: [{ series: [3, 2], fill: `${accent}22` }] }
            : {}),
          scales: { x: frame.x },
          axes: [
            frame.timeAxis,
            {
              stroke: muted,
              grid: { stroke: `${muted}33` },
              ...(stepped ? { values: (_u, ticks) => ticks.map((tick) => format(tick)) } : {}),
            },
          ],
          cursor: frame.cursor,
          hooks: { setSelect: [frame.setSelect] },
        },
        data: columns,
      };
    },
    [property, data],
  );

  return (
    <div className="history-chart" ref={element} data-property={property.path} data-points={data.x.length} />
  );
}
