import { type ReactNode, useState } from 'react';

/**
 * An item of the tile's menu that opens a dialog about its device ("Access…", "History…"). Its
 * visible text starts its accessible name, the rest (`about`) names the device for screen readers.
 */
export function TileDialogButton({
  className,
  label,
  about,
  dialog,
}: {
  className: string;
  label: string;
  about: string;
  dialog: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`popover-item ${className}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {label}
        <span className="visually-hidden"> {about}</span>
      </button>
      {open && dialog(() => setOpen(false))}
    </>
  );
}
