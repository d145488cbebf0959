import { useSession } from '../../shared/session/session-context.js';
import { DevicesView } from './components/DevicesView.js';
import { DevicesContext } from './components/devices-context.js';
import { MESSAGES } from './devices.messages.js';
import { useDeviceHub } from './hooks/useDeviceHub.js';
import './devices.css';

/** docs/roles.md: device streaming and this page are for residents and admins. */
export const canViewDevices = (role: string | undefined | null) => role === 'resident' || role === 'admin';

/** docs/screens.md#devices-page: the Devices page. Loaded lazily by the router (the MQTT client comes with it). */
export default function DevicesPage() {
  const { user, accessToken, loading } = useSession();
  const allowed = canViewDevices(user?.role);
  const hub = useDeviceHub({
    enabled: allowed,
    accessToken,
    username: user ? user.user_name || user.email : null,
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
