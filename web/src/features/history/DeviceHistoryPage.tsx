import type { Device } from '@hearth/contracts';
import { Download } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { HistoryChart } from './HistoryChart.js';
import { exportHref, fetchDevice, fetchHistory } from './history.api.js';
import {
  type ChartData,
  type ChartProperty,
  chartProperties,
  RANGES,
  type RangeId,
  shownFrom,
  HISTORY_TEXTS as T,
  toChartData,
} from './history.model.js';
import { RecordingDialog } from './recording-dialog.lazy.js';
import { TimelineChart } from './TimelineChart.js';
import { type Timeline, toTimeline } from './timeline.model.js';
import './history.css';

/** Points asked for per chart: about one per pixel of a wide chart. */
const POINTS = 1000;
/**
 * Timelines ask for more: on/off and enum readings are sparse (changes and heartbeats), so a range
 * within the raw retention usually stays raw, every change at its time (docs/history.md#timelines).
 */
const TIMELINE_POINTS = 5000;

type Range = { preset: RangeId | undefined; from: number; to: number };

const presetRange = (id: RangeId): Range => {
  const to = Date.now();
  return { preset: id, from: to - RANGES.find((r) => r.id === id)!.ms, to };
};

/** A time of day, with the date when it is not today. */
const clock = (ms: number) => {
  const at = new Date(ms);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
};

/** `?from=…&to=…` (epoch ms) opens a range of its own; else the 24 h preset. */
function initialRange(search: URLSearchParams): Range {
  const from = Number(search.get('from'));
  const to = Number(search.get('to'));
  if (search.has('from') && search.has('to') && Number.isFinite(from) && Number.isFinite(to) && from < to)
    return { preset: undefined, from, to };
  return presetRange('24h');
}

/** docs/history.md#device-history-page: `/devices/{id}`, a chart per recorded property on one time axis. */
export default function DeviceHistoryPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const [device, setDevice] = useState<Device | null | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>();
  const [range, setRange] = useState<Range>(() => initialRange(search));
  const [settings, setSettings] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchDevice(id).then((result) => {
      if (!live) return;
      if (!result.ok) setFailed(result.error ?? T.failed);
      else setDevice(result.data ?? null);
    });
    return () => {
      live = false;
    };
  }, [id]);

  const properties = useMemo(() => (device ? chartProperties(device.capabilities) : []), [device]);
  const zoom = useCallback((from: number, to: number) => setRange({ preset: undefined, from, to }), []);
  // Each chart's first reading in this range: once every chart has answered, a young history
  // is drawn from where it starts (shownFrom); until then, the whole range.
  const [firsts, setFirsts] = useState<{ range: Range; at: Map<string, number | null> } | null>(null);
  const onFirst = useCallback(
    (answered: Range, path: string, first: number | null) =>
      setFirsts((known) => {
        const at = new Map(known?.range === answered ? known.at : []);
        at.set(path, first);
        return { range: answered, at };
      }),
    [],
  );
  const answered = firsts?.range === range ? firsts.at : null;
  const from =
    answered && properties.every((property) => answered.has(property.path))
      ? shownFrom(range, [...answered.values()])
      : range.from;

  if (failed)
    return (
      <section className="history-page">
        <p role="alert">{failed}</p>
      </section>
    );
  if (device === undefined) return <section className="history-page" aria-busy="true" />;
  if (device === null)
    return (
      <section className="history-page">
        <p role="alert">{T.notFound}</p>
      </section>
    );

  return (
    <section className="history-page" aria-labelledby="history-title">
      <header className="history-header">
        <div className="history-title-row">
          <Link to="/devices" className="button button--ghost button--small">
            {T.back}
          </Link>
          <h1 id="history-title">{T.title(device.name)}</h1>
        </div>
        {/* A line of its own: "Reset zoom" joining the presets moves nothing else. */}
        <div className="history-toolbar">
          <fieldset className="history-ranges">
            <legend className="visually-hidden">{T.ranges}</legend>
            {RANGES.map((preset) => (
              <button
                key={preset.id}
                type="button"
                className={`button button--small ${range.preset === preset.id ? 'button--primary' : 'button--secondary'}`}
                aria-pressed={range.preset === preset.id}
                onClick={() => setRange(presetRange(preset.id))}
              >
                {preset.label}
              </button>
            ))}
            {range.preset === undefined && (
              <button
                type="button"
                className="button button--small button--ghost"
                onClick={() => setRange(presetRange('24h'))}
              >
                {T.resetZoom}
              </button>
            )}
          </fieldset>
          <button
            type="button"
            className="button button--small button--secondary history-settings"
            aria-haspopup="dialog"
            onClick={() => setSettings(true)}
          >
            {T.settings}
          </button>
        </div>
        {from > range.from && <p className="history-since">{T.since(clock(from))}</p>}
      </header>
      {settings && (
        <RecordingDialog
          deviceId={device.id}
          name={device.name}
          capabilities={device.capabilities}
          onClose={() => setSettings(false)}
        />
      )}
      {properties.map((property) => (
        <PropertyHistory
          key={property.path}
          deviceId={device.id}
          property={property}
          range={range}
          from={from}
          onZoom={zoom}
          onFirst={onFirst}
        />
      ))}
    </section>
  );
}

function PropertyHistory({
  deviceId,
  property,
  range,
  from,
  onZoom,
  onFirst,
}: {
  deviceId: string;
  property: ChartProperty;
  /** What is asked for (and exported). */
  range: Range;
  /** Where the chart starts: the range's start, or where a young history starts. */
  from: number;
  onZoom(from: number, to: number): void;
  /** Told this chart's first reading (ms), or null without any or when the call failed. */
  onFirst(range: Range, path: string, first: number | null): void;
}) {
  const [state, setState] = useState<{
    data?: ChartData;
    timeline?: Timeline;
    error?: string;
    resolution?: string;
  }>({});
  const banded = property.type !== 'number';
  useEffect(() => {
    let live = true;
    const points = banded ? TIMELINE_POINTS : POINTS;
    void fetchHistory(deviceId, property.path, range.from, range.to, points).then((result) => {
      if (!live) return;
      onFirst(range, property.path, result.ok ? (result.data.points[0]?.t ?? null) : null);
      if (result.ok)
        setState({
          data: toChartData(result.data, property),
          ...(banded ? { timeline: toTimeline(result.data, property, Math.min(range.to, Date.now())) } : {}),
          resolution: result.data.resolution,
        });
      else setState({ error: result.error ?? T.failed });
    });
    return () => {
      live = false;
    };
  }, [deviceId, property, range, banded, onFirst]);

  const headingId = `history-${property.path.replaceAll('.', '-')}`;
  return (
    <article className="history-card" aria-labelledby={headingId} aria-busy={!state.data && !state.error}>
      <div className="history-card-head">
        <h2 id={headingId}>
          {property.label}
          {property.unit ? <span className="history-unit"> ({property.unit})</span> : null}
        </h2>
        {state.data && state.data.x.length > 0 && (
          <a
            className="button button--ghost button--small"
            href={exportHref(deviceId, property.path, range.from, range.to)}
            aria-label={T.csvLabel(property.label)}
            download
          >
            <Download size={14} aria-hidden="true" />
            {T.csv}
          </a>
        )}
      </div>
      {state.error && <p role="alert">{state.error}</p>}
      {state.data && state.data.x.length === 0 && <p className="history-empty">{T.empty}</p>}
      {state.data && state.data.x.length > 0 && state.timeline && (
        <TimelineChart
          property={property}
          timeline={state.timeline}
          data={state.data}
          from={from}
          to={range.to}
          onZoom={onZoom}
          syncKey={deviceId}
        />
      )}
      {state.data && state.data.x.length > 0 && !state.timeline && (
        <HistoryChart
          property={property}
          data={state.data}
          from={from}
          to={range.to}
          onZoom={onZoom}
          syncKey={deviceId}
        />
      )}
    </article>
  );
}
