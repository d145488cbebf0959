/** Tables of rooms, floors and favourites, added by migration 0008 (docs/rooms.md). */
export interface FloorsTable {
  id: string;
  name: string;
  /** Lower-cased name: unique. */
  name_key: string;
  /** The floor's `order`. */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface RoomsTable {
  id: string;
  name: string;
  /** Lower-cased name: unique per floor_scope. */
  name_key: string;
  icon: string;
  /** The room's `order`. */
  position: number;
  floor_id: string | null;
  /** floor_id, or '' for rooms without a floor. */
  floor_scope: string;
  created_at: string;
  updated_at: string;
}

export interface FavouritesTable {
  user_id: string;
  device_id: string;
  position: number;
}

export interface RoomsTables {
  floors: FloorsTable;
  rooms: RoomsTable;
  favourites: FavouritesTable;
}
