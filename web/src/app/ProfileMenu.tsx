import { LogOut, Settings } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { loadsAuthModal } from '../features/auth/auth-modal.lazy.js';
import { useSession } from '../shared/session/session-context.js';
import { Avatar } from '../shared/ui/Avatar.js';
import { MenuItem } from '../shared/ui/MenuItem.js';

/** docs/screens.md#layout: the profile button, top right, and its popover when signed in. */
export function ProfileMenu({ onOpenSettings }: { onOpenSettings(): void }) {
  const { user, logout, openAuthModal, loading } = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const items = () => [...(ref.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    items()[0]?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        ref.current?.querySelector<HTMLElement>('.avatar-button')?.focus();
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const list = items();
        const at = list.indexOf(document.activeElement as HTMLElement);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        list[(at + step + list.length) % list.length]?.focus();
        event.preventDefault();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  useEffect(() => {
    if (!user) setOpen(false);
  }, [user]);

  if (!user) {
    return (
      <div className="profile" aria-busy={loading}>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => openAuthModal()}
          {...loadsAuthModal}
        >
          Log in
        </button>
        <button
          type="button"
          className="avatar-button"
          aria-label="Open sign-in"
          onClick={() => openAuthModal()}
          {...loadsAuthModal}
        >
          <Avatar user={null} size={40} />
        </button>
      </div>
    );
  }

  const displayName = user.user_name || user.name;
  return (
    <div className="profile" ref={ref}>
      <button
        type="button"
        className="avatar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        {/* Named by hidden text, not aria-label: the initials shown are decoration. */}
        <span className="visually-hidden">Account menu for {displayName}</span>
        <Avatar user={user} size={40} />
      </button>
      {open && (
        <div className="popover" role="menu" aria-label="Account">
          <div className="popover-header">
            <Avatar user={user} size={48} />
            <span className="popover-name">{displayName}</span>
          </div>
          <MenuItem
            onClick={() => {
              setOpen(false);
              onOpenSettings();
            }}
          >
            <Settings size={18} aria-hidden="true" />
            Settings
          </MenuItem>
          <MenuItem
            onClick={() => {
              setOpen(false);
              void logout();
            }}
          >
            <LogOut size={18} aria-hidden="true" />
            Logout
          </MenuItem>
        </div>
      )}
    </div>
  );
}
