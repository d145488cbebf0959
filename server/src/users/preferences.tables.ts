/** A person's own settings of the app, added by migration 0028 (docs/api.md#preferences). */
export interface UserPreferencesTable {
  user_id: string;
  /** 0/1: home leaves out SPEC's sample tiles ("Hide examples"). */
  hide_examples: number;
  updated_at: string;
}

export interface PreferencesTables {
  user_preferences: UserPreferencesTable;
}
