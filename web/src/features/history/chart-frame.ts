import { type RefObject, useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { token, useColorScheme } from './use-color-scheme.js';

/** What each chart of the history page is given: the page's range and how charts move together. */
export interface ChartRange {
  /** The range shown (ms): every chart of the page shares it. */
  from: number;
  to: number;
  /** A drag selected [from, to] (ms). */
  onZoom(from: number, to: number): void;
  /** Charts of one page move their crosshairs together. */
  syncKey: string;
}

/** The parts every chart's options share, in the current theme's colours. */
export interface ChartFrame {
  muted: string;
  x: uPlot.Scale;
  timeAxis: uPlot.Axis;
  cursor: uPlot.Cursor;
  setSelect: (u: uPlot) => void;
  /**
   * The time series of the legend: the time under the crosshair, and while nothing is hovered the
   * time of `latest` (s), the last reading drawn (docs/history.md#device-history-page).
   */
  timeSeries(latest: number | undefined): uPlot.Series;
}

/** uPlot's own legend format for times. */
const legendTime = uPlot.fmtDate('{YYYY}-{MM}-{DD} {h}:{mm}{aa}');
const timeText = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? '--' : legendTime(new Date(seconds * 1000));

/**
 * docs/history.md#device-history-page: the index of the latest reading (the last non-null value),
 * which the legend shows while the crosshair is elsewhere; undefined without any.
 */
export function latestIndex(values: readonly (number | null)[]): number | undefined {
  for (let index = values.length - 1; index >= 0; index--) if (values[index] !== null) return index;
  return undefined;
}

function chartFrame({ from, to, syncKey }: ChartRange, zoom: RefObject<ChartRange['onZoom']>): ChartFrame {
  const muted = token('--muted', '#888');
  return {
    muted,
    x: { time: true, min: from / 1000, max: to / 1000 },
    timeAxis: { stroke: muted, grid: { stroke: `${muted}33` } },
    cursor: { sync: { key: syncKey }, drag: { x: true, y: false } },
    timeSeries: (latest) => ({
      value: (_u, value, _series, index) => timeText(index === null ? latest : value),
    }),
    setSelect: (u) => {
      if (u.select.width < 5) return;
      const left = u.posToVal(u.select.left, 'x');
      const right = u.posToVal(u.select.left + u.select.width, 'x');
      u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      zoom.current(left * 1000, right * 1000);
    },
  };
}

/**
 * The one way the history page draws a uPlot chart (HistoryChart, TimelineChart): `draw` gives
 * the options and columns, built from the shared frame (the page's time range as the x scale, the
 * muted time axis, the crosshair that moves with the other charts, a drag that zooms them all).
 * The chart takes its element's width (280 px at least) and follows it, is drawn again when the
 * range, the theme or `deps` change, and is left on the element as `uplot`, where browser tests
 * read what is drawn (docs/history.md#device-history-page).
 */
export function useChart<E extends HTMLDivElement & { uplot?: uPlot }>(
  range: ChartRange,
  draw: (target: E, frame: ChartFrame) => { options: Omit<uPlot.Options, 'width'>; data: uPlot.AlignedData },
  deps: readonly unknown[],
): RefObject<E | null> {
  const element = useRef<E>(null);
  const zoom = useRef(range.onZoom);
  zoom.current = range.onZoom;
  const scheme = useColorScheme();
  const { from, to, syncKey } = range;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `draw` is new on every render; what it reads is in `deps`, the scheme redraws in the theme's colours
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const { options, data } = draw(target, chartFrame({ from, to, syncKey, onZoom: zoom.current }, zoom));
    const width = () => Math.max(280, target.clientWidth);
    const chart = new uPlot({ ...options, width: width() }, data, target);
    target.uplot = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: chart.height }));
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [from, to, syncKey, scheme, ...deps]);

  return element;
}
