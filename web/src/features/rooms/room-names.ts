/** Characters that may separate a leading room name from the rest of a device's name. */
const SEPARATORS = /^[\s/\-_:·–—|]+/;

/**
 * docs/rooms.md#display-name-within-a-room: the name a device shows under its room. A name that
 * starts with the room's name (any case) followed by a separator drops it ("Kitchen lamp" under
 * Kitchen → "Lamp", `Kitchen/Lamp` → "Lamp"); a `room/device` path whose last room part is the
 * room shows its last part (`Upstairs/Bedroom/Lamp` under Bedroom → "Lamp"). The rest starts
 * with a capital unless it is a word like "iPhone". Any other name, or nothing left, is unchanged.
 */
export function nameInRoom(name: string, roomName: string | null | undefined): string {
  const room = roomName?.trim().toLocaleLowerCase();
  if (!room) return name;
  const slash = name.lastIndexOf('/');
  if (slash > 0) {
    const path = name.slice(0, slash);
    const last = path.slice(path.lastIndexOf('/') + 1).trim();
    const rest = name.slice(slash + 1).trim();
    if (rest && last.toLocaleLowerCase() === room) return capitalise(rest);
  }
  const trimmed = name.trimStart();
  if (trimmed.slice(0, room.length).toLocaleLowerCase() !== room) return name;
  const after = trimmed.slice(room.length);
  const separator = SEPARATORS.exec(after);
  if (!separator) return name;
  const rest = after.slice(separator[0].length).trim();
  return rest ? capitalise(rest) : name;
}

function capitalise(text: string): string {
  const [first = '', second = ''] = [...text];
  if (second && second !== second.toLocaleLowerCase()) return text;
  return first.toLocaleUpperCase() + text.slice(first.length);
}
