import { Lock, LockOpen, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { Dialog, DialogActions } from '../../../shared/ui/Dialog.js';
import { LOCK_TEXTS } from '../devices.messages.js';
import type { DeviceCommand } from '../model/commands.js';
import type { LockView } from '../model/lock.js';

/**
 * docs/screens.md#locks: a lock reads Locked, Unlocked or Jammed, with "Lock" or "Unlock" beside
 * it; "Unlock" asks first (Apple Home and Home Assistant do), "Lock" does not. On the tile, the
 * favourite card and the guest page alike; without `onSend` (view only) just the word.
 */
export function LockControl({
  lock,
  name,
  disabled,
  describedBy,
  onSend,
}: {
  lock: LockView;
  name: string;
  disabled: boolean;
  describedBy?: string | undefined;
  onSend?: ((command: DeviceCommand) => void) | undefined;
}) {
  const [asking, setAsking] = useState(false);
  const headingId = useId();
  const { status } = lock;
  // Locked (or locking): the way out is Unlock; anything else offers Lock.
  const unlocks = status === 'locked' || status === 'locking';
  const command = unlocks ? lock.unlock : lock.lock;
  const Icon = status === 'jammed' ? TriangleAlert : status === 'locked' ? Lock : LockOpen;
  return (
    <div className={`lock-control lock-${status}`}>
      <span className="lock-status" data-lock={status}>
        <Icon size={16} aria-hidden="true" />
        {LOCK_TEXTS[status]}
      </span>
      {onSend && command && (
        <button
          type="button"
          className="button button--secondary button--compact"
          aria-label={unlocks ? LOCK_TEXTS.unlockLabel(name) : LOCK_TEXTS.lockLabel(name)}
          aria-describedby={describedBy}
          disabled={disabled}
          onClick={() => (unlocks ? setAsking(true) : onSend(command))}
        >
          {unlocks ? LOCK_TEXTS.unlock : LOCK_TEXTS.lock}
        </button>
      )}
      {asking && onSend && lock.unlock && (
        <Dialog labelledBy={headingId} onClose={() => setAsking(false)} size="small">
          <h2 id={headingId} className="dialog-title">
            {LOCK_TEXTS.confirmTitle(name)}
          </h2>
          <p>{LOCK_TEXTS.confirmText}</p>
          <DialogActions leaveLabel={LOCK_TEXTS.cancel} onLeave={() => setAsking(false)}>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setAsking(false);
                if (lock.unlock) onSend(lock.unlock);
              }}
            >
              {LOCK_TEXTS.unlock}
            </button>
          </DialogActions>
        </Dialog>
      )}
    </div>
  );
}
