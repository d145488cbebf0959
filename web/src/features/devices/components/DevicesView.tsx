import { BRIDGE_OFFLINE, busOfflineSince, MESSAGES } from '../devices.messages.js';
import { useDeviceIds, useDeviceStats, useHubStatus } from '../hooks/use-device-store.js';
import { clockTime } from '../model/format.js';
import { AssignToolbar } from './AssignToolbar.js';
import { BusDelayNotice } from './BusDelayNotice.js';
import { DeviceGrid } from './DeviceGrid.js';
import { useDevicesContext } from './devices-context.js';

function Header() {
  const { store } = useDevicesContext();
  const stats = useDeviceStats(store);
  const status = useHubStatus(store);
  return (
    <>
      <header className="devices-header">
        <div>
          <h1>{MESSAGES.title}</h1>
          <p className="devices-subtitle">
            {MESSAGES.subtitle} · {stats.total} discovered
            {stats.total > 0 && ` · ${stats.online} online`}
          </p>
        </div>
        <div className="pills header-pills">
          {status.metadata.connected ? (
            <span className="pill tone-success">Metadata: {status.metadata.source}</span>
          ) : (
            <span className="pill tone-warning">{MESSAGES.metadataOffline}</span>
          )}
          {status.stream.connected ? (
            <span className="pill tone-success">{MESSAGES.stateConnected}</span>
          ) : (
            <span className="pill tone-warning">{MESSAGES.stateOffline}</span>
          )}
        </div>
      </header>
      <section className="summary-card" aria-label="Summary">
        <Stat label="Total devices" value={stats.total} />
        <Stat label="Online" value={stats.online} />
        <Stat label="With state" value={stats.withState} />
        <Stat label="Sensors" value={stats.sensors} />
      </section>
      {status.bus?.bus === 'offline' && (
        <div className="notice-card" role="status">
          {busOfflineSince(clockTime(status.bus.since))}
        </div>
      )}
      <BusDelayNotice />
      {status.bus?.bus === 'online' && status.bus.bridge === 'offline' && (
        <div className="notice-card" role="status">
          {BRIDGE_OFFLINE}
        </div>
      )}
      {status.error && (
        <div className="error-card" role="alert">
          {status.error}
        </div>
      )}
    </>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="stat">
      <span className="stat-value">{value}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

function Body() {
  const { store } = useDevicesContext();
  const ids = useDeviceIds(store);
  const { loading } = useHubStatus(store);
  if (ids.length === 0 && loading) {
    return (
      <div className="devices-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {MESSAGES.connecting}
      </div>
    );
  }
  if (ids.length === 0) return <p className="devices-empty">{MESSAGES.empty}</p>;
  return (
    <>
      <AssignToolbar />
      <DeviceGrid ids={ids} />
    </>
  );
}

export function DevicesView() {
  return (
    <div className="devices-page">
      <Header />
      <Body />
    </div>
  );
}
