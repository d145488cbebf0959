import type { AccessRules } from '@hearth/contracts';
import { useId, useState } from 'react';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { saveRules } from './access.api.js';
import {
  deviceRowLabel,
  deviceTitle,
  level,
  sameAsRoomOption,
  ACCESS_TEXTS as T,
} from './access.messages.js';
import { type Choice, LEVELS, roomLevel, withDeviceChoice } from './access.model.js';
import { personName } from './MatrixRow.js';
import { usePeopleRules } from './use-people-rules.js';
import './access.css';

/**
 * docs/screens.md#device-access: who may use this one device, as exceptions to its room's rules
 * ("Same as room": no entry). Opened from a tile's "Access…"; saves one PUT /api/access/{user_id}
 * per changed person.
 */
export default function DeviceAccessDialog({
  deviceId,
  name,
  roomId,
  onClose,
}: {
  deviceId: string;
  name: string;
  roomId: string | null;
  onClose(): void;
}) {
  const { user } = useSession();
  const { showToast } = useToast();
  const headingId = useId();
  const { people, saved, error: loadError, update } = usePeopleRules(user);
  const [edits, setEdits] = useState<Record<string, Choice>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const savedChoice = (userId: string): Choice => saved[userId]?.devices[deviceId] ?? 'default';
  const choose = (userId: string, choice: Choice) =>
    setEdits((before) => {
      const { [userId]: _old, ...rest } = before;
      return choice === savedChoice(userId) ? rest : { ...rest, [userId]: choice };
    });

  const save = async () => {
    const bodies: AccessRules[] = Object.entries(edits).map(([userId, choice]) =>
      withDeviceChoice(saved[userId] ?? { user_id: userId, rooms: {}, devices: {} }, deviceId, choice),
    );
    if (bodies.length === 0) return onClose();
    setSaving(true);
    const answers = await Promise.all(bodies.map((body) => saveRules(body)));
    const failed: Record<string, string> = {};
    answers.forEach((answer, index) => {
      const body = bodies[index] as AccessRules;
      if (answer.success) update(answer.data?.devices ? answer.data : body);
      else failed[body.user_id] = answer.error ?? T.saveFailed;
    });
    setSaving(false);
    setEdits((before) => Object.fromEntries(Object.entries(before).filter(([id]) => failed[id])));
    setErrors(failed);
    if (Object.keys(failed).length === 0) {
      showToast(T.deviceSaved);
      onClose();
    }
  };

  return (
    <Dialog labelledBy={headingId} onClose={onClose} size="medium" className="device-access-dialog">
      <h2 id={headingId} className="dialog-title">
        {deviceTitle(name)}
      </h2>
      <p className="device-access-hint">{T.deviceHint}</p>
      {loadError && (
        <p className="device-access-error" role="alert">
          {loadError}
        </p>
      )}
      {people === null && !loadError && (
        <p className="access-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {T.loading}
        </p>
      )}
      {people && people.length === 0 && <p className="access-empty">{T.noPeople}</p>}
      {people && people.length > 0 && (
        <ul className="device-access-list">
          {people.map((person) => {
            const value = edits[person.id] ?? savedChoice(person.id);
            const inherited = roomLevel(saved[person.id], person.role, roomId);
            const effective = value === 'default' ? inherited : value;
            const who = personName(person);
            const errorId = `device-access-error-${person.id}`;
            return (
              <li key={person.id} className="device-access-row" data-user-id={person.id}>
                <span>
                  <span className="access-person-name">{who}</span>
                  <span className="access-person-meta">
                    @{person.user_name} · {person.role}
                  </span>
                  {errors[person.id] && (
                    <span className="access-row-error" id={errorId} role="alert">
                      {errors[person.id]}
                    </span>
                  )}
                </span>
                <select
                  className={`select select--compact access-cell level-${effective}${value === 'default' ? ' is-default' : ''}${edits[person.id] !== undefined ? ' is-edited' : ''}`}
                  aria-label={deviceRowLabel(who, name)}
                  aria-describedby={errors[person.id] ? errorId : undefined}
                  value={value}
                  disabled={saving}
                  onChange={(event) => choose(person.id, event.target.value as Choice)}
                >
                  <option value="default">{sameAsRoomOption(inherited)}</option>
                  {LEVELS.map((option) => (
                    <option key={option} value={option}>
                      {level(option)}
                    </option>
                  ))}
                </select>
              </li>
            );
          })}
        </ul>
      )}
      <DialogActions leaveLabel={T.cancel} onLeave={onClose}>
        <button
          type="button"
          className="button button--primary"
          disabled={people === null || saving}
          onClick={() => void save()}
        >
          {saving ? T.saving : T.saveDevice}
        </button>
      </DialogActions>
    </Dialog>
  );
}
