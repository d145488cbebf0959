import type { Capability } from '@hearth/contracts';
import { memo } from 'react';
import { HISTORY_TEXTS as T } from '../../history/history.model.js';
import { RecordingDialog } from '../../history/recording-dialog.lazy.js';
import type { CapabilityReading } from '../model/device.types.js';
import { TileDialogButton } from './TileDialogButton.js';

/**
 * A tile's "History…": which of the device's readings are recorded (docs/history.md#exclusions-in-the-app).
 * Memoised like the tile's other parts that do not show state.
 */
export const TileRecordingButton = memo(function TileRecordingButton({
  deviceId,
  name,
  capabilities,
}: {
  deviceId: string | null;
  name: string;
  capabilities: CapabilityReading[];
}) {
  if (!deviceId) return null;
  return (
    <TileDialogButton
      className="tile-recording"
      label={T.tileSettings}
      // "History… (recording settings for {name})"
      about={T.settingsFor(name)}
      dialog={(close) => (
        <RecordingDialog
          deviceId={deviceId}
          name={name}
          // The hub's capabilities as the page read them; the dialog only reads kind, property, name and features.
          capabilities={capabilities as Capability[]}
          onClose={close}
        />
      )}
    />
  );
});
