import type { Device } from '@hearth/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { HistoryChart } from './HistoryChart.js';
import { fetchDevice, fetchHistory } from './history.api.js';
import {
  type ChartData,
  type ChartProperty,
  chartProperties,
  RANGES,
  type RangeId,
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
        <Link to="/devices" className="button button--ghost button--small">
          {T.back}
        </Link>
        <h1 id="history-title">{T.title(device.name)}</h1>
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
          className="button button--small button--secondary"
          aria-haspopup="dialog"
          onClick={() => setSettings(true)}
        >
          {T.settings}
        </button>
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
          onZoom={zoom}
        />
      ))}
    </section>
  );
}

function PropertyHistory({
  deviceId,
  property,
  range,
  onZoom,
}: {
  deviceId: string;
  property: ChartProperty;
  range: Range;
  onZoom(from: number, to: number): void;
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
  }, [deviceId, property, range, banded]);

  const headingId = `history-${property.path.replaceAll('.', '-')}`;
  return (
    <article className="history-card" aria-labelledby={headingId} aria-busy={!state.data && !state.error}>
      <h2 id={headingId}>
        {property.label}
        {property.unit ? <span className="history-unit"> ({property.unit})</span> : null}
      </h2>
      {state.error && <p role="alert">{state.error}</p>}
      {state.data && state.data.x.length === 0 && <p className="history-empty">{T.empty}</p>}
      {state.data && state.data.x.length > 0 && state.timeline && (
        <TimelineChart
          property={property}
          timeline={state.timeline}
          data={state.data}
          from={range.from}
          to={range.to}
          onZoom={onZoom}
          syncKey={deviceId}
        />
      )}
      {state.data && state.data.x.length > 0 && !state.timeline && (
        <HistoryChart
          property={property}
          data={state.data}
          from={range.from}
          to={range.to}
          onZoom={onZoom}
          syncKey={deviceId}
        />
      )}
    </article>
  );
}
