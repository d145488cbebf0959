import type { DeviceIconKind } from '@hearth/contracts';
import { Battery, Cpu, DoorClosed, Droplet, Lightbulb, Plug, Thermometer, Zap } from 'lucide-react';
import { memo } from 'react';

const ICONS = {
  door: DoorClosed,
  light: Lightbulb,
  plug: Plug,
  thermometer: Thermometer,
  humidity: Droplet,
  battery: Battery,
  voltage: Zap,
  device: Cpu,
} satisfies Record<DeviceIconKind, unknown>;

/** Memoised: a tile renders again on every state message, its icon only when its kind changes. */
export const DeviceIcon = memo(function DeviceIcon({ kind }: { kind: DeviceIconKind }) {
  const Icon = ICONS[kind];
  return (
    <span className="icon-badge device-icon" data-icon={kind} aria-hidden="true">
      <Icon size={22} strokeWidth={1.75} />
    </span>
  );
});
