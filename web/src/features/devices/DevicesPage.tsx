import { isManager } from '@hearth/contracts';
import { useSession } from '../../shared/session/session-context.js';
import { DevicesView } from './components/DevicesView.js';
import { DevicesContext } from './components/devices-context.js';
import { MESSAGES } from './devices.messages.js';
import { useDeviceHub } from './hooks/use-device-hub.js';
import './devices.css';

/** docs/screens.md#devices-page: the Devices page. Loaded lazily by the router (the MQTT client comes with it). */
export default function DevicesPage() {
  const { user, accessToken, loading } = useSession();
  const allowed = isManager(user?.role);
  const hub = useDeviceHub({
    enabled: allowed,
    accessToken,
    username: user ? user.user_name || user.email : null,
    userId: user?.id ?? null,
  });
  if (!allowed) {
    if (loading) {
      return (
        <div className="devices-loading" role="status">
          <span className="spinner" aria-hidden="true" />
        </div>
      );
    }
    return <p className="no-permission">{MESSAGES.noPermission}</p>;
  }
  return (
    <DevicesContext.Provider value={hub}>
      <DevicesView />
    </DevicesContext.Provider>
  );
}
