/** docs/rooms.md#drag-and-drop: what a dragged tile carries, the device ids as JSON. */
export const DRAG_TYPE = 'application/x-hearth-device-ids';
/** The hint that every draggable tile is described by (aria-describedby). */
export const DRAG_HINT_ID = 'device-drag-hint';

/** Whether a drag carries tiles (types are readable during the drag, the data only on drop). */
export const carriesDevices = (data: DataTransfer | null) => !!data && [...data.types].includes(DRAG_TYPE);

/** The ids a drop carries; an empty list for anything else. */
export function droppedIds(text: string): string[] {
  try {
    const ids: unknown = JSON.parse(text);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && id !== '') : [];
  } catch {
    return [];
  }
}

/** A press on these inside a tile is theirs (a slider, a field, a button), never a drag of the tile. */
export const PRESS_TARGETS = 'input, select, textarea, button, a, [role=slider], [contenteditable], .popover';
