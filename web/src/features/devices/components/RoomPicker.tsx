import type { Room } from '@hearth/contracts';
import { Check } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { MenuItem } from '../../../shared/ui/MenuItem.js';
import { useFlipUp } from '../../../shared/ui/use-flip-up.js';
import type { AssignTarget } from '../../rooms/assign.js';
import { MESSAGES } from '../devices.messages.js';

const items = (root: HTMLElement | null) => [
  ...(root?.querySelectorAll<HTMLElement>('[role^=menuitem]:not([disabled])') ?? []),
];

/**
 * docs/rooms.md#on-the-devices-page: a button opening a menu of the rooms, "Unassigned" and
 * "New room…" (a name field, then Create). `current` is checked (undefined: none, for a
 * selection). Arrow keys move, Escape closes and gives focus back to the button.
 */
export function RoomPicker({
  rooms,
  current,
  label,
  menuLabel,
  children,
  disabled = false,
  buttonClassName = 'room-button',
  onPick,
}: {
  rooms: Room[];
  current: string | null | undefined;
  /** The button's accessible name. */
  label: string;
  menuLabel: string;
  /** What the button shows. */
  children: ReactNode;
  disabled?: boolean;
  buttonClassName?: string;
  onPick(target: AssignTarget): void;
}) {
  const [open, setOpen] = useState(false);
  const [naming, setNaming] = useState(false);
  const [draft, setDraft] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  // Near the window's bottom edge (the last tile's menu) it opens above its button.
  const up = useFlipUp(popover, open && !naming);
  const fieldId = useId();

  const close = (focusButton: boolean) => {
    setOpen(false);
    setNaming(false);
    if (focusButton) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) {
        setOpen(false);
        setNaming(false);
      }
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  useEffect(() => {
    if (!open || naming) return;
    const list = items(root.current);
    (list.find((item) => item.getAttribute('aria-checked') === 'true') ?? list[0])?.focus();
  }, [open, naming]);

  const pick = (target: AssignTarget) => {
    close(true);
    onPick(target);
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab' && !naming) {
      close(false);
    } else if (!naming && ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) {
      const list = items(root.current);
      const at = list.indexOf(document.activeElement as HTMLElement);
      const next =
        event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? list.length - 1
            : (at + (event.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length;
      list[next]?.focus();
      event.preventDefault();
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keys of the menu inside (arrows, Escape) bubble here.
    <div className={`room-picker${open ? ' is-open' : ''}`} ref={root} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className={buttonClassName}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        disabled={disabled}
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        {children}
      </button>
      {open && !naming && (
        <div
          ref={popover}
          className={`popover room-popover${up ? ' is-above' : ''}`}
          role="menu"
          aria-label={menuLabel}
        >
          {[
            ...rooms.map((room) => ({ id: room.id as string | null, name: room.name })),
            { id: null, name: MESSAGES.unassigned },
          ].map((option) => (
            <MenuItem
              key={option.id ?? ''}
              checked={current === option.id}
              onClick={() => pick({ roomId: option.id })}
            >
              <span className="room-check" aria-hidden="true">
                {current === option.id && <Check size={16} />}
              </span>
              {option.name}
            </MenuItem>
          ))}
          <MenuItem
            onClick={() => {
              setDraft('');
              setNaming(true);
            }}
          >
            <span className="room-check" aria-hidden="true" />
            {MESSAGES.newRoom}
          </MenuItem>
        </div>
      )}
      {open && naming && (
        <form
          className="popover room-popover room-new"
          aria-label={MESSAGES.newRoom}
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim()) pick({ newRoom: draft.trim() });
          }}
        >
          <label htmlFor={fieldId}>{MESSAGES.roomName}</label>
          <input
            id={fieldId}
            className="input input--compact"
            value={draft}
            maxLength={64}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user chose "New room…"
            autoFocus
            onChange={(event) => setDraft(event.target.value)}
          />
          <div className="room-new-actions">
            <button type="submit" className="button button--primary button--compact" disabled={!draft.trim()}>
              {MESSAGES.createRoom}
            </button>
            <button
              type="button"
              className="button button--secondary button--compact"
              onClick={() => close(true)}
            >
              {MESSAGES.cancel}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
