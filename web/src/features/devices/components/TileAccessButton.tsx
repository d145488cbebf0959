import { lazy, Suspense, useState } from 'react';
import { ACCESS_TEXTS, tileButtonFor } from '../../access/access.messages.js';

// docs/screens.md#device-access: the dialog's code loads when it is first opened.
const DeviceAccessDialog = lazy(() => import('../../access/DeviceAccessDialog.js'));

/** A tile's "Access…": who may use this one device, as exceptions to its room's rules. */
export function TileAccessButton({
  deviceId,
  name,
  roomId,
}: {
  deviceId: string | null;
  name: string;
  roomId: string | null;
}) {
  const [open, setOpen] = useState(false);
  if (!deviceId) return null;
  return (
    <>
      <button
        type="button"
        className="button button--ghost button--compact tile-access"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {ACCESS_TEXTS.tileButton}
        {/* The visible text starts the accessible name: "Access… (who may use {name})". */}
        <span className="visually-hidden"> {tileButtonFor(name)}</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <DeviceAccessDialog
            deviceId={deviceId}
            name={name}
            roomId={roomId}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
