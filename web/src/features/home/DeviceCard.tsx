import { Lightbulb, Settings } from 'lucide-react';
import { useState } from 'react';

/** docs/screens.md#sample-device-card: the sample device card. */
export interface SampleDevice {
  name: string;
  protocol: string;
  on: boolean;
}

export const SAMPLE_DEVICE: SampleDevice = { name: 'Living Room Lamp', protocol: 'Zigbee', on: true };

/** docs/screens.md#home: a switch that flips on ↔ off unless disabled; static sample data. */
export function DeviceCard({
  device = SAMPLE_DEVICE,
  disabled = false,
}: {
  device?: SampleDevice;
  disabled?: boolean;
}) {
  const [on, setOn] = useState(device.on);
  return (
    <article className={`tile device-card${on ? ' device-card--on' : ''}`} aria-label={device.name}>
      <div className="device-card-top">
        <span className="device-card-icon">
          <Lightbulb size={28} aria-hidden="true" />
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-label={`${device.name} power`}
          className="switch"
          disabled={disabled}
          onClick={() => setOn((value) => !value)}
        >
          <span className="switch-thumb" />
        </button>
      </div>
      <h3 className="device-card-name">{device.name}</h3>
      <p className="device-card-protocol">{device.protocol}</p>
      <button type="button" className="button button--secondary button--small">
        <Settings size={16} aria-hidden="true" />
        Settings
      </button>
    </article>
  );
}
