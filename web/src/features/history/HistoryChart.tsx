import uPlot from 'uplot';
import { type ChartRange, latestIndex, useChart } from './chart-frame.js';
import type { ChartData, ChartProperty } from './history.model.js';
import { token } from './use-color-scheme.js';

interface Props extends ChartRange {
  property: ChartProperty;
  data: ChartData;
}

/**
 * One property's chart (uPlot): a line for numbers with the min/max band when bucketed, steps for
 * on/off and enum values; gaps (nulls) break the line. Drag to zoom; the legend shows the values
 * under the crosshair, and the latest reading while nothing is hovered.
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
      // Before any hover the legend shows the latest reading, not "–".
      const latest = latestIndex(data.y);
      const series: uPlot.Series[] = [
        frame.timeSeries(latest === undefined ? undefined : data.x[latest]),
        {
          label: property.label,
          stroke: accent,
          width: 2,
          spanGaps: false,
          value: (_u, value, _series, index) =>
            format(index === null ? (latest === undefined ? null : (data.y[latest] ?? null)) : value),
          ...(stepped ? { paths: uPlot.paths.stepped?.({ align: 1 }), fill: `${accent}33` } : {}),
        },
      ];
      const columns: uPlot.AlignedData = [data.x, data.y];
      if (data.min && data.max && property.type === 'number') {
        series.push(
          {
            label: 'min',
            stroke: muted,
            width: 1,
            dash: [4, 4],
            value: (_u, v, _s, index) =>
              format(index === null && latest !== undefined ? (data.min?.[latest] ?? null) : v),
          },
          {
            label: 'max',
            stroke: muted,
            width: 1,
            dash: [4, 4],
            value: (_u, v, _s, index) =>
              format(index === null && latest !== undefined ? (data.max?.[latest] ?? null) : v),
          },
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
