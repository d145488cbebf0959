import type { Capability } from '@hearth/contracts';
import { useEffect, useId, useMemo, useState } from 'react';
import { useToast } from '../../shared/toast/toast-context.js';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { fetchExclusions, saveExclusions } from './history.api.js';
import { chartProperties, HISTORY_TEXTS as T } from './history.model.js';
import './recording-dialog.css';

function Toggle({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange(next: boolean): void;
}) {
  const id = useId();
  return (
    <div className="recording-row">
      <span id={id}>{label}</span>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={id}
        className="switch switch--small"
        disabled={disabled}
        onClick={() => onChange(!checked)}
      >
        <span className="switch-thumb" />
      </button>
    </div>
  );
}

/**
 * docs/history.md#exclusions-in-the-app: whether a device, and each of its recordable properties,
 * is recorded; saved with PUT /api/history/exclusions/{device_id}. Opened from a tile's "History…"
 * and from the device's history page.
 */
export default function RecordingDialog({
  deviceId,
  name,
  capabilities,
  onClose,
  onSaved,
}: {
  deviceId: string;
  name: string;
  capabilities: readonly Capability[];
  onClose(): void;
  onSaved?(): void;
}) {
  const { showToast } = useToast();
  const headingId = useId();
  const properties = useMemo(() => chartProperties(capabilities), [capabilities]);
  const [device, setDevice] = useState<boolean | undefined>(undefined);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchExclusions(deviceId).then((result) => {
      if (!live) return;
      if (!result.ok) setError(result.error ?? T.failed);
      else {
        setDevice(result.data.device);
        setExcluded(new Set(result.data.properties));
      }
    });
    return () => {
      live = false;
    };
  }, [deviceId]);

  const save = async () => {
    if (device === undefined) return;
    setSaving(true);
    const result = await saveExclusions(deviceId, { device, properties: [...excluded] });
    setSaving(false);
    if (!result.ok) {
      setError(result.error ?? T.failed);
      return;
    }
    showToast(T.saved);
    onSaved?.();
    onClose();
  };

  const loaded = device !== undefined;
  return (
    <Dialog labelledBy={headingId} onClose={onClose} size="small" className="recording-dialog">
      <h2 id={headingId} className="dialog-title">
        {T.settings}
      </h2>
      <p className="recording-device">{name}</p>
      <div aria-busy={!loaded && !error}>
        {loaded && (
          <>
            <Toggle label={T.recordDevice} checked={!device} onChange={(on) => setDevice(!on)} />
            {properties.length > 0 && (
              <fieldset className="recording-properties" disabled={device}>
                <legend>{T.properties}</legend>
                <p className="recording-hint">{T.propertiesHint}</p>
                {properties.map((property) => (
                  <Toggle
                    key={property.path}
                    label={property.label}
                    checked={!excluded.has(property.path)}
                    disabled={device}
                    onChange={(on) =>
                      setExcluded((before) => {
                        const next = new Set(before);
                        if (on) next.delete(property.path);
                        else next.add(property.path);
                        return next;
                      })
                    }
                  />
                ))}
              </fieldset>
            )}
          </>
        )}
      </div>
      {error && (
        <p className="recording-error" role="alert">
          {error}
        </p>
      )}
      <DialogActions leaveLabel={T.cancel} onLeave={onClose}>
        <button
          type="button"
          className="button button--primary"
          disabled={!loaded || saving}
          onClick={() => void save()}
        >
          {saving ? T.saving : T.save}
        </button>
      </DialogActions>
    </Dialog>
  );
}
