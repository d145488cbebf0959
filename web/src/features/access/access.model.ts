import {
  ACCESS_LEVELS,
  type AccessLevel,
  type AccessRules,
  ROLE_DEFAULT_ACCESS,
  type Role,
  type Room,
} from '@hearth/contracts';

/** docs/access.md: the levels, weakest first. */
export const LEVELS = ACCESS_LEVELS;

/** What a cell or a device entry holds: a level of its own, or nothing (the role's default / the room's rule). */
export type Choice = AccessLevel | 'default';

/** docs/access.md#defaults: `admin` and `resident` control everything, `user` sees nothing. */
export const roleDefault = (role: Role): AccessLevel => ROLE_DEFAULT_ACCESS[role] ?? 'none';

/** A person's level in a room: the room's rule, else the role's default. */
export const roomLevel = (rules: AccessRules | undefined, role: Role, roomId: string | null): AccessLevel =>
  (roomId !== null ? rules?.rooms[roomId] : undefined) ?? roleDefault(role);

/** A person's level for one device: its own rule, else its room's, else the role's default. */
export const deviceLevel = (
  rules: AccessRules | undefined,
  role: Role,
  deviceId: string,
  roomId: string | null,
): AccessLevel => rules?.devices[deviceId] ?? roomLevel(rules, role, roomId);

/** Whether rules give anything to see: a `user` with any rule at view or control gets the Devices page. */
export const seesAnything = (rules: AccessRules | null | undefined): boolean =>
  !!rules &&
  [...Object.values(rules.rooms), ...Object.values(rules.devices)].some((level) => level !== 'none');

/** Whether the person has any access rule (a role change asks whether to keep them only then). */
export const hasRules = (rules: AccessRules | null | undefined): boolean =>
  !!rules && Object.keys(rules.rooms ?? {}).length + Object.keys(rules.devices ?? {}).length > 0;

/**
 * docs/access.md#who-may-change-whose-rules: an admin sets the rules of residents and users (an
 * admin always controls everything), a resident only those of `user` accounts; nobody else any.
 */
export const canEditRulesOf = (viewer: Role | null | undefined, person: Role): boolean =>
  (viewer === 'admin' && person !== 'admin') || (viewer === 'resident' && person === 'user');

/** Pending edits of the rules matrix: person → room → the choice made (only choices that differ from the saved rules). */
export type MatrixEdits = Record<string, Record<string, Choice>>;

const savedChoice = (rules: AccessRules | undefined, roomId: string): Choice =>
  rules?.rooms[roomId] ?? 'default';

/** What a cell shows: the pending edit, else the saved rule, else "default". */
export function cellChoice(
  saved: Record<string, AccessRules>,
  edits: MatrixEdits,
  userId: string,
  roomId: string,
): Choice {
  return edits[userId]?.[roomId] ?? savedChoice(saved[userId], roomId);
}

/** Edits after choosing `choice` in one cell; choosing what is saved drops the edit. */
export function editCell(
  saved: Record<string, AccessRules>,
  edits: MatrixEdits,
  userId: string,
  roomId: string,
  choice: Choice,
): MatrixEdits {
  const row = { ...edits[userId] };
  if (choice === savedChoice(saved[userId], roomId)) delete row[roomId];
  else row[roomId] = choice;
  const next = { ...edits };
  if (Object.keys(row).length === 0) delete next[userId];
  else next[userId] = row;
  return next;
}

/** How many cells differ from what is saved. */
export const editCount = (edits: MatrixEdits) =>
  Object.values(edits).reduce((sum, row) => sum + Object.keys(row).length, 0);

/**
 * The bodies of PUT /api/access/{user_id}, one per person with edits: their saved rules with the
 * edited rooms replaced ("default" leaves the room out); their device rules are kept as they are.
 */
export function rulesToSave(saved: Record<string, AccessRules>, edits: MatrixEdits): AccessRules[] {
  return Object.entries(edits).map(([userId, row]) => {
    const before = saved[userId] ?? { user_id: userId, rooms: {}, devices: {} };
    const rooms = { ...before.rooms };
    for (const [roomId, choice] of Object.entries(row)) {
      if (choice === 'default') delete rooms[roomId];
      else rooms[roomId] = choice;
    }
    return { user_id: userId, rooms, devices: { ...before.devices } };
  });
}

/** A person's rules with this one device's entry set, or removed with "default" ("Same as room"). */
export function withDeviceChoice(rules: AccessRules, deviceId: string, choice: Choice): AccessRules {
  const devices = { ...rules.devices };
  if (choice === 'default') delete devices[deviceId];
  else devices[deviceId] = choice;
  return { ...rules, devices };
}

export interface FloorColumns {
  /** The floor's id, null for the rooms without a floor. */
  floorId: string | null;
  /** The floor's name; null for the rooms without a floor. */
  name: string | null;
  rooms: Room[];
}

/**
 * The matrix's columns: the rooms in their order, grouped by floor (floors in their order, then the
 * rooms without a floor) when floors exist; one group without a name otherwise. Empty groups are
 * left out.
 */
export function roomColumns(rooms: readonly Room[], floors: readonly { id: string; name: string }[]) {
  if (floors.length === 0) return rooms.length ? [{ floorId: null, name: null, rooms: [...rooms] }] : [];
  const groups: FloorColumns[] = floors.map((floor) => ({
    floorId: floor.id,
    name: floor.name,
    rooms: rooms.filter((room) => room.floor_id === floor.id),
  }));
  const known = new Set(floors.map((floor) => floor.id));
  groups.push({
    floorId: null,
    name: null,
    rooms: rooms.filter((room) => room.floor_id === null || !known.has(room.floor_id)),
  });
  return groups.filter((group) => group.rooms.length > 0);
}
