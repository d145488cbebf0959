import type { Room, User } from '@hearth/contracts';
import { cellLabel, defaultOption, level } from './access.messages.js';
import { type Choice, LEVELS, roleDefault } from './access.model.js';

export const personName = (user: User) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ') || user.name || user.user_name;

/** One person's row of the rules matrix: their name and role, then one choice per room. */
export function MatrixRow({
  person,
  rooms,
  choice,
  edited,
  error,
  disabled,
  onChoose,
}: {
  person: User;
  rooms: Room[];
  choice(roomId: string): Choice;
  edited(roomId: string): boolean;
  error: string | null;
  disabled: boolean;
  onChoose(roomId: string, choice: Choice): void;
}) {
  const name = personName(person);
  const fallback = roleDefault(person.role);
  const errorId = `access-error-${person.id}`;
  return (
    <tr data-user-id={person.id}>
      <th scope="row" className="access-person">
        <span className="access-person-name">{name}</span>
        <span className="access-person-meta">
          @{person.user_name} · {person.role}
        </span>
        {error && (
          <span className="access-row-error" id={errorId} role="alert">
            {error}
          </span>
        )}
      </th>
      {rooms.map((room) => {
        const value = choice(room.id);
        const effective = value === 'default' ? fallback : value;
        return (
          <td key={room.id}>
            <select
              className={`select select--compact access-cell level-${effective}${value === 'default' ? ' is-default' : ''}${edited(room.id) ? ' is-edited' : ''}`}
              aria-label={cellLabel(name, room.name)}
              aria-describedby={error ? errorId : undefined}
              value={value}
              disabled={disabled}
              onChange={(event) => onChoose(room.id, event.target.value as Choice)}
            >
              <option value="default">{defaultOption(fallback)}</option>
              {LEVELS.map((option) => (
                <option key={option} value={option}>
                  {level(option)}
                </option>
              ))}
            </select>
          </td>
        );
      })}
    </tr>
  );
}
