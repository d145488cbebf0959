import type { Role, User } from '@hearth/contracts';
import { useId } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { roleDialogText, roleDialogTitle, USERS_MESSAGES } from './users.messages.js';

/**
 * docs/screens.md#role-and-lock-changes: a new role asks first whether the person keeps the
 * access rules set for them or goes back to the new role's defaults.
 */
export function RoleChangeDialog({
  user,
  role,
  onChoose,
  onCancel,
}: {
  user: User;
  role: Role;
  onChoose(resetAccess: boolean): void;
  onCancel(): void;
}) {
  const headingId = useId();
  return (
    <Dialog labelledBy={headingId} onClose={onCancel} size="small" className="role-dialog">
      <h2 id={headingId} className="dialog-title">
        {roleDialogTitle(user.user_name, role)}
      </h2>
      <p className="role-dialog-text">{roleDialogText(role)}</p>
      <DialogActions leaveLabel={USERS_MESSAGES.cancel} onLeave={onCancel}>
        <button type="button" className="button button--secondary" onClick={() => onChoose(true)}>
          {USERS_MESSAGES.resetRules}
        </button>
        <button
          type="button"
          className="button button--primary"
          data-autofocus
          onClick={() => onChoose(false)}
        >
          {USERS_MESSAGES.keepRules}
        </button>
      </DialogActions>
    </Dialog>
  );
}
