import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, ChartProperty } from './history.model.js';
import { token, useColorScheme } from './use-color-scheme.js';

interface Props {
  property: ChartProperty;
  data: ChartData;
  /** The range shown (ms): every chart of the page shares it. */
  from: number;
  to: number;
  /** A drag selected [from, to] (ms). */
  onZoom(from: number, to: number): void;
  /** Charts of one page move their crosshairs together. */
  syncKey: string;
}

/**
 * One property's chart (uPlot): a line for numbers with the min/max band when bucketed, steps for
 * on/off and enum values; gaps (nulls) break the line. Drag to zoom; the legend shows the values
 * under the crosshair.
 */
export function HistoryChart({ property, data, from, to, onZoom, syncKey }: Props) {
  const element = useRef<HTMLDivElement>(null);
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const scheme = useColorScheme();

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    void scheme;
    const accent = token('--accent', '#d97706');
    const muted = token('--muted', '#888');
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
    const options: uPlot.Options = {
      width: Math.max(280, target.clientWidth),
      height: stepped ? 120 : 220,
      series,
      ...(data.min && data.max && property.type === 'number'
        ? { bands: [{ series: [3, 2], fill: `${accent}22` }] }
        : {}),
      scales: { x: { time: true, min: from / 1000, max: to / 1000 } },
      axes: [
        { stroke: muted, grid: { stroke: `${muted}33` } },
        {
          stroke: muted,
          grid: { stroke: `${muted}33` },
          ...(stepped ? { values: (_u, ticks) => ticks.map((tick) => format(tick)) } : {}),
        },
      ],
      cursor: { sync: { key: syncKey }, drag: { x: true, y: false } },
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 5) return;
            const left = u.posToVal(u.select.left, 'x');
            const right = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            zoom.current(left * 1000, right * 1000);
          },
        ],
      },
    };
    const chart = new uPlot(options, columns, target);
    // Browser tests read what is drawn (docs/history.md#device-history-page).
    (target as HTMLDivElement & { uplot?: uPlot }).uplot = chart;
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(280, target.clientWidth), height: chart.height }),
    );
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [property, data, from, to, syncKey, scheme]);

  return (
    <div className="history-chart" ref={element} data-property={property.path} data-points={data.x.length} />
  );
}
