import type { AccessRules, RoomsResponse, User } from '@hearth/contracts';
import { isManager } from '@hearth/contracts';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../shared/session/session-context.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { RoomIcon } from '../rooms/RoomIcon.js';
import { fetchRooms } from '../rooms/rooms.api.js';
import { USERS_MESSAGES } from '../users/users.messages.js';
import { saveRules } from './access.api.js';
import { ACCESS_TEXTS as T, unsaved } from './access.messages.js';
import {
  cellChoice,
  editCell,
  editCount,
  type MatrixEdits,
  roomColumns,
  rulesToSave,
} from './access.model.js';
import { MatrixRow } from './MatrixRow.js';
import { usePeopleRules } from './use-people-rules.js';
import './access.css';

/**
 * docs/screens.md#access-rules: people × rooms, each cell the person's rule for the room or the
 * role's default; the changed people are saved with one PUT /api/access/{user_id} each.
 */
export default function AccessPage() {
  const { user, loading } = useSession();
  const allowed = isManager(user?.role);
  if (loading && !user) return <section className="access-page" aria-busy="true" />;
  if (!user || !allowed) {
    return (
      <section className="access-page">
        <p className="users-denied">{USERS_MESSAGES.noPermission}</p>
      </section>
    );
  }
  return <Matrix viewer={user} />;
}

function Matrix({ viewer }: { viewer: User }) {
  const { showToast } = useToast();
  const { people, saved, error: loadError, update } = usePeopleRules(viewer);
  const [rooms, setRooms] = useState<RoomsResponse | null>(null);
  const [roomsError, setRoomsError] = useState<string | null>(null);
  const [edits, setEdits] = useState<MatrixEdits>({});
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchRooms().then((result) => {
      if (!live) return;
      if (result.success) setRooms(result.data);
      else setRoomsError(result.error ?? T.loadFailed);
    });
    return () => {
      live = false;
    };
  }, []);

  const changes = editCount(edits);
  // Unsaved choices are not lost to a reload or a closed tab without the browser asking first.
  useEffect(() => {
    if (changes === 0) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [changes]);

  const groups = rooms ? roomColumns(rooms.rooms, rooms.floors) : [];
  const columns = groups.flatMap((group) => group.rooms);
  const floored = groups.some((group) => group.name !== null);
  const error = loadError ?? roomsError;

  const save = async () => {
    setSaving(true);
    const bodies = rulesToSave(saved, edits);
    const answers = await Promise.all(bodies.map((rules) => saveRules(rules)));
    const failed: Record<string, string> = {};
    let left = edits;
    answers.forEach((answer, index) => {
      const body = bodies[index] as AccessRules;
      if (answer.success) {
        update(answer.data?.rooms ? answer.data : body);
        const { [body.user_id]: _done, ...rest } = left;
        left = rest;
      } else failed[body.user_id] = answer.error ?? T.saveFailed;
    });
    setEdits(left);
    setRowErrors(failed);
    setSaving(false);
    if (Object.keys(failed).length === 0) showToast(T.saved);
  };

  const ready = people !== null && rooms !== null;
  return (
    <section className="access-page" aria-labelledby="access-title">
      <header className="access-header">
        <Link to="/users" className="button button--ghost button--small access-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {T.back}
        </Link>
        <h1 id="access-title">{T.title}</h1>
        <p className="access-subtitle">{T.subtitle}</p>
        {viewer.role === 'resident' && <p className="access-note">{T.residentNote}</p>}
      </header>
      {error && (
        <div className="users-alert" role="alert">
          {error}
        </div>
      )}
      {!ready && !error && (
        <p className="access-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {T.loading}
        </p>
      )}
      {ready && columns.length === 0 && <p className="access-empty">{T.noRooms}</p>}
      {ready && columns.length > 0 && people.length === 0 && <p className="access-empty">{T.noPeople}</p>}
      {ready && columns.length > 0 && people.length > 0 && (
        <>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by the keyboard (axe scrollable-region-focusable). */}
          <section className="access-matrix-wrap" aria-label={T.matrixLabel} tabIndex={0}>
            <table className="access-matrix">
              <thead>
                {floored && (
                  <tr className="access-floors">
                    <td className="access-corner" />
                    {groups.map((group) => (
                      <th key={group.floorId ?? 'none'} scope="colgroup" colSpan={group.rooms.length}>
                        {group.name ?? T.withoutFloor}
                      </th>
                    ))}
                  </tr>
                )}
                <tr>
                  <th scope="col" className="access-person-head">
                    {T.person}
                  </th>
                  {columns.map((room) => (
                    <th key={room.id} scope="col" className="access-room-head">
                      <span className="access-room-name">
                        <RoomIcon icon={room.icon} size={16} />
                        {room.name}
                      </span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {people.map((person) => (
                  <MatrixRow
                    key={person.id}
                    person={person}
                    rooms={columns}
                    choice={(roomId) => cellChoice(saved, edits, person.id, roomId)}
                    edited={(roomId) => edits[person.id]?.[roomId] !== undefined}
                    error={rowErrors[person.id] ?? null}
                    disabled={saving}
                    onChoose={(roomId, choice) =>
                      setEdits((before) => editCell(saved, before, person.id, roomId, choice))
                    }
                  />
                ))}
              </tbody>
            </table>
          </section>
          <div className="access-actions">
            <span className="access-unsaved" aria-live="polite">
              {changes > 0 ? unsaved(changes) : ''}
            </span>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={changes === 0 || saving}
              onClick={() => {
                setEdits({});
                setRowErrors({});
              }}
            >
              {T.discard}
            </button>
            <button
              type="button"
              className="button button--primary button--small"
              disabled={changes === 0 || saving}
              onClick={() => void save()}
            >
              {saving ? T.saving : T.save}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
