import { isManager } from '@hearth/contracts';
import { useMemo } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { useDevicesAccess } from '../access/own-access.js';
import { DevicesView } from './components/DevicesView.js';
import { DevicesContext } from './components/devices-context.js';
import { MESSAGES } from './devices.messages.js';
import { useDeviceHub } from './hooks/use-device-hub.js';
import './devices.css';

/** docs/screens.md#devices-page: the Devices page. Loaded lazily by the router (the MQTT client comes with it). */
export default function DevicesPage() {
  const { user, accessToken, loading } = useSession();
  // docs/access.md: residents and admins, and a `user` with any rule at view or control (their devices only).
  const access = useDevicesAccess(user);
  const allowed = access.allowed;
  const manager = isManager(user?.role);
  const hub = useDeviceHub({
    enabled: allowed,
    accessToken,
    username: user ? user.user_name || user.email : null,
    userId: user?.id ?? null,
  });
  // A `user`'s page shows the rooms (GET /api/rooms lists those holding their devices) but has no
  // favourites, selection or room changes (those are a resident's or admin's).
  const admin = user?.role === 'admin';
  const value = useMemo(
    () =>
      manager
        ? { ...hub, admin }
        : { store: hub.store, actions: hub.actions, rooms: hub.rooms, manager: false },
    [manager, admin, hub],
  );
  if (!allowed) {
    if (loading || access.loading) {
      return (
        <div className="devices-loading" role="status">
          <span className="spinner" aria-hidden="true" />
        </div>
      );
    }
    return <p className="no-permission">{MESSAGES.noPermission}</p>;
  }
  return (
    <DevicesContext.Provider value={value}>
      <DevicesView />
    </DevicesContext.Provider>
  );
}
