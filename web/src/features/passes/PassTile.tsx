import { deviceIconKind, type PassLevel } from '@hearth/contracts';
import { memo, useMemo } from 'react';
import { Switch } from '../devices/components/ControlView.js';
import { DeviceIcon } from '../devices/components/DeviceIcon.js';
import { LastSeen } from '../devices/components/LastSeen.js';
import { LockControl } from '../devices/components/LockControl.js';
import { TileControls } from '../devices/components/TileControls.js';
import { TileMetrics } from '../devices/components/TileMetrics.js';
import { MESSAGES } from '../devices/devices.messages.js';
import { useDevice } from '../devices/hooks/use-device-store.js';
import { binaryLabel, binaryTone } from '../devices/model/binary.js';
import { buildCommand, type DeviceCommand } from '../devices/model/commands.js';
import { binaryReadings, type Control, deviceControls, splitControls } from '../devices/model/controls.js';
import { lastHeard } from '../devices/model/device.model.js';
import type { DeviceView } from '../devices/model/device.types.js';
import { humanise } from '../devices/model/format.js';
import { lockOf } from '../devices/model/lock.js';
import { tileMetrics } from '../devices/model/metrics.js';
import type { DeviceStore } from '../devices/store/device-store.js';

/**
 * A device on the guest's page: the Devices page's tile without what a guest may not use (rename,
 * rooms, history). Controls only at `control`; at `view` the power reads On or Off.
 */
export const PassTile = memo(function PassTile({
  store,
  deviceKey,
  levelOf,
  onSend,
}: {
  store: DeviceStore;
  deviceKey: string;
  levelOf(device: DeviceView): PassLevel | string;
  onSend(device: DeviceView, command: DeviceCommand | null): void;
}) {
  const { device, pending } = useDevice(store, deviceKey);
  const view = useMemo(() => {
    if (!device) return null;
    const controls = deviceControls(device);
    // docs/screens.md#locks: Locked / Unlocked with a confirmed Unlock, as on the Devices page.
    const lock = lockOf(device, controls);
    const { power, others } = splitControls(controls.filter((control) => control !== lock?.control));
    const readings = binaryReadings(device).map((reading) => ({
      ...reading,
      label: binaryLabel(reading.property, reading.value),
      tone: binaryTone(reading.property, reading.value),
    }));
    const controlled = new Set(
      [lock?.control, power, ...others].flatMap((control) =>
        control
          ? [control.property, control.parts?.actions?.property, control.parts?.position?.property]
          : [],
      ),
    );
    const metrics = tileMetrics(device, new Set([...controlled].filter((p): p is string => !!p)));
    return { icon: deviceIconKind(device), lock, power: lock ? null : power, others, readings, metrics };
  }, [device]);
  if (!device || !view) return null;
  const control = levelOf(device) === 'control';
  const on = view.lock
    ? view.lock.status === 'locked'
    : view.power
      ? view.power.value === true
      : device.toggleState === true;
  const send = (item: Control, value: unknown) => onSend(device, buildCommand(item, value));
  const classes = ['device-tile', `icon-${view.icon}`, on && 'is-on', !device.online && 'is-offline']
    .filter(Boolean)
    .join(' ');
  return (
    <article className={classes} data-device-id={device.id ?? device.key} aria-label={device.displayName}>
      <header className="tile-header">
        <DeviceIcon kind={view.icon} />
        <div className="tile-heading">
          <h2 className="tile-name pass-tile-name">{device.displayName}</h2>
          <p className="tile-meta">{[device.manufacturer, device.model].filter(Boolean).join(' • ')}</p>
        </div>
        <div className="tile-power">
          {view.lock ? (
            <LockControl
              lock={view.lock}
              name={device.displayName}
              disabled={pending}
              onSend={control ? (command) => onSend(device, command) : undefined}
            />
          ) : view.power && control ? (
            <Switch
              checked={on}
              label={`Power ${device.displayName}`}
              disabled={pending}
              onChange={(next) => send(view.power as Control, next)}
            />
          ) : view.power ? (
            <span className={`pill ${on ? 'tone-success' : 'tone-muted'}`}>{on ? 'On' : 'Off'}</span>
          ) : (
            <span className={`status ${device.online ? 'online' : 'offline'}`}>
              {device.online ? 'Online' : 'Offline'}
            </span>
          )}
        </div>
      </header>
      {view.readings.length > 0 && (
        <div className="pills">
          {view.readings.map((reading) => (
            <span
              key={reading.property}
              className={`pill tone-${reading.tone}`}
              data-binary={reading.property}
            >
              {humanise(reading.property)}: {reading.label}
            </span>
          ))}
        </div>
      )}
      {control && <TileControls controls={view.others} disabled={pending} onSend={send} />}
      <TileMetrics metrics={view.metrics} />
      <footer className="tile-footer">
        <LastSeen at={lastHeard(device)} />
        {pending && <span className="updating">{MESSAGES.updating}</span>}
      </footer>
    </article>
  );
});
