import { X } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useFocusTrap, useScrollLock } from './use-focus-trap.js';

export interface DialogProps {
  /** id of the element that names the dialog (its heading). */
  labelledBy: string;
  onClose(): void;
  /** 400 px, 480 px or 640 px wide at most. */
  size?: 'small' | 'medium' | 'large';
  /** The × button's accessible name. */
  closeLabel?: string;
  /** Focus starts on × instead of the first `[data-autofocus]` or focusable element. */
  focusClose?: boolean;
  className?: string;
  children: ReactNode;
}

const SIZES = { small: ' dialog--small', medium: ' dialog--medium', large: '' };

/**
 * The one modal dialog (auth, forgot password, Account Settings, the picture modal): focus moves
 * in on open and stays inside, Escape, × and a press on the backdrop close it, the page does not
 * scroll behind it, and focus returns to whatever opened it. Dialogs opened from a dialog stack
 * on top and take the keys until they close.
 */
export function Dialog({
  labelledBy,
  onClose,
  size = 'large',
  closeLabel = 'Close',
  focusClose = false,
  className,
  children,
}: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  useScrollLock(true);
  useFocusTrap(panel, true, onClose);

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop only closes on a pointer press outside the panel; keyboard users have Escape and ×.
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className={`dialog${SIZES[size]}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
      >
        <button
          type="button"
          className="icon-button dialog-close"
          aria-label={closeLabel}
          onClick={onClose}
          {...(focusClose ? { 'data-autofocus': true } : {})}
        >
          <X size={20} aria-hidden="true" />
        </button>
        {children}
      </div>
    </div>,
    document.body,
  );
}

/**
 * A dialog's row of buttons, at its end: the one that leaves without doing anything (Cancel,
 * Done) first, then the dialog's own (`children`, the primary one last).
 */
export function DialogActions({
  leaveLabel,
  onLeave,
  children,
}: {
  leaveLabel: string;
  onLeave(): void;
  children?: ReactNode;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button button--secondary" onClick={onLeave}>
        {leaveLabel}
      </button>
      {children}
    </div>
  );
}
