/** Tables of the activity domain, added by migration 0013 (docs/activity.md#storage). */

/** One entry of the append-only activity log; nothing updates a row, retention deletes old ones. */
export interface ActivityTable {
  /** Sorts by time: the recording instance's clock (hex ms), a counter, a random tail. */
  id: string;
  /** ISO-8601 UTC. */
  at: string;
  actor_type: string;
  actor_id: string | null;
  actor_label: string;
  /** An `api` actor's owner: the person the token acts for (migration 0027). */
  actor_owner_id: string | null;
  actor_owner_label: string | null;
  ip: string | null;
  /** The caller's user agent. */
  client: string | null;
  kind: string;
  device_id: string | null;
  room_id: string | null;
  /** JSON object. */
  detail: string;
  result: string;
}

export interface ActivityTables {
  activity: ActivityTable;
}
