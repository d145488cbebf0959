import type { DevicehubStatus } from '@hearth/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../../shared/api/client.js';
import { useSession } from '../../../shared/session/session-context.js';
import { busHoldsMessagesBack } from '../devices.messages.js';

/**
 * docs/strings.md#devices-page-texts: tells admins (only they can change the broker) that it holds
 * messages back, from the bus probe's verdict in GET /api/devicehub/status.
 */
export function BusDelayNotice() {
  const { user } = useSession();
  const admin = user?.role === 'admin';
  const [roundTrip, setRoundTrip] = useState<number | null>(null);
  useEffect(() => {
    if (!admin) return;
    let active = true;
    void api.get<DevicehubStatus>('/api/devicehub/status').then((result) => {
      if (!active || !result.success || !result.data.bus_delay_warning) return;
      setRoundTrip(Math.round(result.data.bus_round_trip_ms ?? 0));
    });
    return () => {
      active = false;
    };
  }, [admin]);
  if (!admin || roundTrip === null) return null;
  return (
    <div className="notice-card" role="status">
      {busHoldsMessagesBack(roundTrip)}
    </div>
  );
}
