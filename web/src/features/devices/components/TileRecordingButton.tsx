import type { Capability } from '@hearth/contracts';
import { useState } from 'react';
import { HISTORY_TEXTS as T } from '../../history/history.model.js';
import { RecordingDialog } from '../../history/recording-dialog.lazy.js';
import type { CapabilityReading } from '../model/device.types.js';

// docs/history.md#exclusions-in-the-app: the dialog's code loads when it is first opened.

/** A tile's "History…": which of the device's readings are recorded. */
export function TileRecordingButton({
  deviceId,
  name,
  capabilities,
}: {
  deviceId: string | null;
  name: string;
  capabilities: CapabilityReading[];
}) {
  const [open, setOpen] = useState(false);
  if (!deviceId) return null;
  return (
    <>
      <button
        type="button"
        className="button button--ghost button--compact tile-recording"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {T.tileSettings}
        {/* The visible text starts the accessible name: "History… (recording settings for {name})". */}
        <span className="visually-hidden"> {T.settingsFor(name)}</span>
      </button>
      {open && (
        <RecordingDialog
          deviceId={deviceId}
          name={name}
          // The hub's capabilities as the page read them; the dialog only reads kind, property, name and features.
          capabilities={capabilities as Capability[]}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
