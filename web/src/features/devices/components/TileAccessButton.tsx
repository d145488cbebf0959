import { memo } from 'react';
import { loadable } from '../../../shared/ui/loadable.js';
import { ACCESS_TEXTS, tileButtonFor } from '../../access/access.messages.js';
import { TileDialogButton } from './TileDialogButton.js';

// docs/screens.md#device-access: the dialog's code loads when it is first opened.
const DeviceAccessDialog = loadable(() => import('../../access/DeviceAccessDialog.js'));

/** A tile's "Access…": who may use this one device, as exceptions to its room's rules. Memoised like the tile's other parts that do not show state. */
export const TileAccessButton = memo(function TileAccessButton({
  deviceId,
  name,
  roomId,
}: {
  deviceId: string | null;
  name: string;
  roomId: string | null;
}) {
  if (!deviceId) return null;
  return (
    <TileDialogButton
      className="tile-access"
      label={ACCESS_TEXTS.tileButton}
      // "Access… (who may use {name})"
      about={tileButtonFor(name)}
      dialog={(close) => (
        <DeviceAccessDialog deviceId={deviceId} name={name} roomId={roomId} onClose={close} />
      )}
    />
  );
});
