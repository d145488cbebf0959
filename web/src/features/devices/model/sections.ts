import type { Floor, Room, RoomsResponse } from '@hearth/contracts';

/** docs/screens.md#group-by-room: one room's part of the listing (room null: "Unassigned"). */
export interface RoomSection {
  key: string;
  room: Room | null;
  ids: string[];
}

/** The sections under one floor heading; `floor` null with `heading` false: no floors exist, no heading. */
export interface FloorGroup {
  key: string;
  floor: Floor | null;
  heading: boolean;
  sections: RoomSection[];
}

export const UNASSIGNED_SECTION = 'unassigned';

/**
 * The listing (already filtered and sorted) split per room, rooms in their order: when floors exist,
 * each floor's rooms under its heading, in the floors' order, then the rooms without a floor under
 * one more heading; "Unassigned" (devices in no room, or in a room the page does not know) last.
 * Empty rooms are kept when `keepEmpty` (nothing filters), else left out; an empty Unassigned never shows.
 */
export function groupByRoom(
  ids: string[],
  roomOf: (id: string) => string | null,
  { rooms, floors }: RoomsResponse,
  keepEmpty: boolean,
): FloorGroup[] {
  const byRoom = new Map<string, string[]>(rooms.map((room) => [room.id, []]));
  const unassigned: string[] = [];
  for (const id of ids) {
    const roomId = roomOf(id);
    const list = roomId === null ? undefined : byRoom.get(roomId);
    if (list) list.push(id);
    else unassigned.push(id);
  }
  const section = (room: Room): RoomSection => ({ key: room.id, room, ids: byRoom.get(room.id) ?? [] });
  const shown = (list: RoomSection[]) => list.filter((item) => keepEmpty || item.ids.length > 0);
  const rest: RoomSection[] = [];
  const groups: FloorGroup[] = [];
  const floorIds = new Set(floors.map((floor) => floor.id));
  for (const floor of floors) {
    const sections = shown(rooms.filter((room) => room.floor_id === floor.id).map(section));
    if (sections.length > 0 || keepEmpty)
      groups.push({ key: `floor:${floor.id}`, floor, heading: true, sections });
  }
  rest.push(...shown(rooms.filter((room) => !room.floor_id || !floorIds.has(room.floor_id)).map(section)));
  if (unassigned.length > 0) rest.push({ key: UNASSIGNED_SECTION, room: null, ids: unassigned });
  if (rest.length > 0)
    groups.push({ key: 'floor:none', floor: null, heading: floors.length > 0, sections: rest });
  return groups;
}

/** One row of the grouped, virtualised grid. */
export type GridRow =
  | { kind: 'floor'; key: string; group: FloorGroup }
  | { kind: 'section'; key: string; section: RoomSection; collapsed: boolean }
  | { kind: 'tiles'; key: string; ids: string[] }
  | { kind: 'empty'; key: string; section: RoomSection };

/** The groups as rows: headings, then each open section's tiles `columns` to a row. */
export function gridRows(groups: FloorGroup[], columns: number, collapsed: ReadonlySet<string>): GridRow[] {
  const rows: GridRow[] = [];
  for (const group of groups) {
    if (group.heading) rows.push({ kind: 'floor', key: group.key, group });
    for (const section of group.sections) {
      const closed = collapsed.has(section.key);
      rows.push({ kind: 'section', key: `room:${section.key}`, section, collapsed: closed });
      if (closed) continue;
      if (section.ids.length === 0) rows.push({ kind: 'empty', key: `empty:${section.key}`, section });
      for (let start = 0; start < section.ids.length; start += columns) {
        rows.push({
          kind: 'tiles',
          key: `tiles:${section.key}:${start / columns}`,
          ids: section.ids.slice(start, start + columns),
        });
      }
    }
  }
  return rows;
}
