import { useState } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { PASSES_MESSAGES as M } from './passes.messages.js';

/** The new pass's link, shown this once, with Copy. */
export function CreatedPassDialog({ url, onClose }: { url: string; onClose(): void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(M.copied);
    } catch {
      setCopied(M.copyFailed);
    }
  };
  return (
    <Dialog labelledBy="created-pass-title" size="medium" onClose={onClose}>
      <h2 id="created-pass-title" className="dialog-title">
        {M.createdTitle}
      </h2>
      <p>{M.createdText}</p>
      <div className="field">
        <label className="field-label" htmlFor="created-pass-link">
          {M.link}
        </label>
        <input
          id="created-pass-link"
          className="input passes-link"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <p className="passes-copied" role="status">
        {copied}
      </p>
      <DialogActions leaveLabel={M.done} onLeave={onClose}>
        <button type="button" className="button button--primary" data-autofocus onClick={() => void copy()}>
          {M.copy}
        </button>
      </DialogActions>
    </Dialog>
  );
}
