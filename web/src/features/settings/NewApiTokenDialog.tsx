import {
  API_TOKEN_EXPIRIES,
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_SCOPES,
  type ApiTokenExpiry,
  type ApiTokenScope,
  type Room,
} from '@hearth/contracts';
import { type FormEvent, useState } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { Field } from '../../shared/ui/Field.js';
import { apiTokensApi } from './api-tokens.api.js';
import { EXPIRY_LABELS, SCOPE_LABELS, API_TOKEN_TEXTS as T } from './api-tokens.messages.js';

const EXPIRIES = Object.keys(API_TOKEN_EXPIRIES) as ApiTokenExpiry[];

/** "New token": name, expiry, scope and rooms; then the token, this once, with "Copy token". */
export function NewApiTokenDialog({
  rooms,
  onCreated,
  onClose,
}: {
  rooms: Room[];
  onCreated(): void;
  onClose(): void;
}) {
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<ApiTokenExpiry>('90d');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await apiTokensApi.create({ name, expires_in: expiry, scope, rooms: chosen });
    setBusy(false);
    if (!result.success || !result.data) return setError(result.error ?? T.createFailed);
    setToken(result.data.token);
    onCreated();
  };
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(T.copied);
    } catch {
      setCopied(T.copyFailed);
    }
  };

  if (token !== null) {
    return (
      <Dialog labelledBy="created-token-title" size="medium" onClose={onClose}>
        <h2 id="created-token-title" className="dialog-title">
          {T.createdTitle}
        </h2>
        <p>{T.createdText}</p>
        <div className="field">
          <label className="field-label" htmlFor="created-token">
            {T.token}
          </label>
          <input
            id="created-token"
            className="input api-token-secret"
            readOnly
            value={token}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
        <p className="api-token-copied" role="status">
          {copied}
        </p>
        <DialogActions leaveLabel={T.done} onLeave={onClose}>
          <button
            type="button"
            className="button button--primary"
            data-autofocus
            onClick={() => void copy(token)}
          >
            {T.copy}
          </button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog labelledBy="new-token-title" size="medium" onClose={onClose}>
      <h2 id="new-token-title" className="dialog-title">
        {T.dialogTitle}
      </h2>
      <form className="api-token-form" onSubmit={(event) => void submit(event)}>
        <Field
          label={T.name}
          value={name}
          maxLength={API_TOKEN_NAME_MAX_LENGTH}
          required
          data-autofocus
          onChange={(event) => setName(event.target.value)}
        />
        <div className="field">
          <label className="field-label" htmlFor="new-token-expiry">
            {T.expiry}
          </label>
          <select
            id="new-token-expiry"
            className="select"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value as ApiTokenExpiry)}
          >
            {EXPIRIES.map((each) => (
              <option key={each} value={each}>
                {EXPIRY_LABELS[each]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="new-token-scope">
            {T.scope}
          </label>
          <select
            id="new-token-scope"
            className="select"
            value={scope}
            onChange={(event) => setScope(event.target.value as ApiTokenScope)}
          >
            {API_TOKEN_SCOPES.map((each) => (
              <option key={each} value={each}>
                {SCOPE_LABELS[each]}
              </option>
            ))}
          </select>
        </div>
        {rooms.length > 0 && (
          <fieldset className="api-token-rooms">
            <legend className="field-label">{T.rooms}</legend>
            <p className="settings-muted">{T.roomsHint}</p>
            {rooms.map((room) => (
              <label key={room.id} className="api-token-room">
                <input
                  type="checkbox"
                  checked={chosen.includes(room.id)}
                  onChange={(event) =>
                    setChosen((now) =>
                      event.target.checked ? [...now, room.id] : now.filter((id) => id !== room.id),
                    )
                  }
                />
                {room.name}
              </label>
            ))}
          </fieldset>
        )}
        {error && (
          <p className="api-token-error" role="alert">
            {error}
          </p>
        )}
        <DialogActions leaveLabel={T.cancel} onLeave={onClose}>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? T.creating : T.create}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
