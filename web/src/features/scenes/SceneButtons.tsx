import { isManager } from '@hearth/contracts';
import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { scenesApi } from './scenes.api.js';
import { SCENES_MESSAGES as M } from './scenes.messages.js';
import { reloadScenes, useScenes } from './use-scenes.js';
import './scenes.css';

/**
 * docs/automations.md#scene-buttons: the scenes of a room (`roomId`; null: the household's, on
 * home's favourites), each applied with one click; with `deviceIds`, "Save as scene" keeps the
 * values those devices have now. Residents and admins only.
 */
export function SceneButtons({ roomId, deviceIds }: { roomId: string | null; deviceIds?: string[] }) {
  const { user } = useSession();
  const allowed = isManager(user?.role);
  const scenes = useScenes(allowed).filter((scene) => scene.room_id === roomId);
  const { showToast } = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  if (!allowed || (scenes.length === 0 && !deviceIds)) return null;

  const apply = async (id: string, label: string) => {
    setBusy(id);
    const result = await scenesApi.apply(id);
    setBusy(null);
    if (!result.success) return showToast(result.error ?? '');
    const failed = result.data.results.filter((each) => each.status === 'failed').length;
    showToast(failed === 0 ? M.applied(label) : M.partly(label, failed, result.data.results.length));
  };

  return (
    <fieldset className="scene-buttons" aria-label={M.scenes}>
      {scenes.map((scene) => (
        <button
          key={scene.id}
          type="button"
          className="button button--secondary button--small scene-button"
          aria-label={M.apply(scene.name)}
          aria-busy={busy === scene.id}
          disabled={busy === scene.id}
          onClick={() => void apply(scene.id, scene.name)}
        >
          <Sparkles size={14} aria-hidden="true" />
          {scene.name}
        </button>
      ))}
      {deviceIds && deviceIds.length > 0 && <SaveAsScene deviceIds={deviceIds} roomId={roomId} />}
    </fieldset>
  );
}

/**
 * "Save as scene": a name, then the devices' values now kept as a scene (of `roomId`, or the
 * household's): a room section's devices, or the Devices page's selection.
 */
export function SaveAsScene({
  deviceIds,
  roomId,
  className = 'button button--ghost button--small',
}: {
  deviceIds: readonly string[];
  roomId: string | null;
  className?: string;
}) {
  const { user } = useSession();
  const { showToast } = useToast();
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  if (!isManager(user?.role)) return null;
  const save = async () => {
    const result = await scenesApi.capture({
      name: name.trim(),
      device_ids: [...deviceIds],
      room_id: roomId,
    });
    if (!result.success) return showToast(result.error ?? '');
    setSaving(false);
    setName('');
    showToast(M.saved(result.data.name));
    await reloadScenes();
  };
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={deviceIds.length === 0}
        onClick={() => setSaving(true)}
      >
        {M.saveAsScene}
      </button>
      {saving && (
        <Dialog labelledBy="scene-save-title" size="small" onClose={() => setSaving(false)}>
          <h2 id="scene-save-title">{M.saveTitle}</h2>
          <p>{roomId ? M.saveHint : M.saveSelectionHint}</p>
          <label className="scene-save-name">
            {M.name}
            <input className="input" data-autofocus value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <DialogActions leaveLabel={M.cancel} onLeave={() => setSaving(false)}>
            <button
              type="button"
              className="button button--primary"
              disabled={name.trim() === ''}
              onClick={() => void save()}
            >
              {M.save}
            </button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
