import { isManager } from '@hearth/contracts';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/session-context.js';
import { loadsAuthModal } from '../auth/auth-modal.lazy.js';

/** docs/screens.md#home: the "Add Device" tile. Residents and admins go to the Devices page; visitors sign in. */
export function AddDeviceTile() {
  const { user, openAuthModal } = useSession();
  const navigate = useNavigate();
  const allowed = isManager(user?.role);
  return (
    <button
      type="button"
      className="tile add-device"
      disabled={user !== null && !allowed}
      onClick={() => (allowed ? navigate('/devices') : openAuthModal())}
      {...(user === null ? loadsAuthModal : {})}
    >
      <span className="add-device-plus" aria-hidden="true">
        +
      </span>
      <span>Add Device</span>
    </button>
  );
}
