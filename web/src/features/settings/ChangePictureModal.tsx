import { type ChangeEvent, useId, useState } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { StatusLine } from './StatusLine.js';
import { settingsApi } from './settings.api.js';
import { SETTINGS_MESSAGES } from './settings.messages.js';
import { validatePicture, validateUploadChoice } from './settings.validation.js';
import { useAccountAction } from './use-account-action.js';

interface ChangePictureModalProps {
  onClose(): void;
  /** Called with the success message once the new picture is in place. */
  onChanged(message: string): void;
}

/** docs/screens.md#account-settings: generate a pixel avatar, or choose an image (max 5 MB) and upload it. */
export function ChangePictureModal({ onClose, onChanged }: ChangePictureModalProps) {
  const action = useAccountAction();
  const [file, setFile] = useState<File | null>(null);
  const inputId = useId();

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!chosen) return;
    const invalid = validatePicture(chosen);
    if (invalid) {
      setFile(null);
      action.fail(invalid);
      return;
    }
    setFile(chosen);
    action.setStatus(null);
  };
  const generate = async () => {
    if (await action.run('avatar', settingsApi.generateAvatar)) onChanged(SETTINGS_MESSAGES.avatar.success);
  };
  const upload = async () => {
    const invalid = validateUploadChoice(file);
    if (invalid || !file) return action.fail(invalid ?? '');
    if (await action.run('upload', () => settingsApi.uploadPicture(file)))
      onChanged(SETTINGS_MESSAGES.upload.success);
  };
  const busy = action.busy !== null;

  return (
    <Dialog labelledBy="picture-title" onClose={onClose} size="medium" className="picture-modal">
      <h2 id="picture-title" className="dialog-title">
        Change Profile Picture
      </h2>
      <div className="picture-modal__body">
        <button
          type="button"
          className="button button--secondary button--block"
          onClick={generate}
          disabled={busy}
          data-autofocus
        >
          🎨 Generate Pixel Avatar
        </button>
        <p className="picture-modal__or">or</p>
        <div className="picture-modal__upload">
          <input
            id={inputId}
            type="file"
            accept="image/*"
            className="settings-file-input"
            onChange={choose}
            disabled={busy}
          />
          <label htmlFor={inputId} className="button button--secondary picture-modal__choose">
            📁 Choose Image
          </label>
          <span className="picture-modal__file" title={file?.name}>
            {file?.name ?? 'No file chosen'}
          </span>
          <button type="button" className="button button--primary" onClick={upload} disabled={busy}>
            Upload
          </button>
        </div>
        <p className="settings-hint">Upload your own image (max 5MB)</p>
        <StatusLine status={action.status} />
      </div>
      <DialogActions leaveLabel="Cancel" onLeave={onClose} />
    </Dialog>
  );
}
