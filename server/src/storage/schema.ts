import type { Generated } from 'kysely';
import type { AccessTables } from '../access/access.tables.js';
import type { AccountsTables } from '../accounts/accounts.tables.js';
import type { IdentityTables } from '../accounts/identities.tables.js';
import type { PicturesTables } from '../accounts/pictures/pictures.tables.js';
import type { ActivityTables } from '../activity/activity.tables.js';
import type { AlertsTables } from '../alerts/alerts.tables.js';
import type { AutomationsTables } from '../automations/automations.tables.js';
import type { DevicehubTables } from '../devicehub/devicehub.tables.js';
import type { HistoryTables } from '../history/history.tables.js';
import type { RateLimitTables } from '../http/rate-limit.tables.js';
import type { NotificationsTables } from '../notifications/notifications.tables.js';
import type { PassesTables } from '../passes/passes.tables.js';
import type { PushTables } from '../push/push.tables.js';
import type { RoomsTables } from '../rooms/rooms.tables.js';
import type { ScenesTables } from '../scenes/scenes.tables.js';
import type { ApiTokensTables } from '../tokens/tokens.tables.js';
import type { PreferencesTables } from '../users/preferences.tables.js';
import type { SecretsTables } from './secrets.tables.js';

/**
 * Table types shared by both dialects. Booleans are stored as 0/1 integers and timestamps as
 * ISO-8601 UTC text so that one schema and one set of queries serve SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: string;
  email: string;
  user_name: string;
  /** Lower-cased user_name: uniqueness is case-insensitive. */
  user_name_key: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  role: 'user' | 'resident' | 'admin';
  email_confirmed: Generated<number>;
  two_factor_enabled: Generated<number>;
  lockout_enabled: Generated<number>;
  lockout_reason: string | null;
  lockout_until: string | null;
  profile_picture: string | null;
  /** Access tokens issued before this time are refused (password change, reset, lock, role change, sign out everywhere). */
  tokens_valid_after: string | null;
  created_at: string;
  updated_at: string;
}

/** Every table; each domain declares its own in `<domain>.tables.ts`. */
export interface Database
  extends AccessTables,
    AccountsTables,
    ActivityTables,
    IdentityTables,
    DevicehubTables,
    RateLimitTables,
    RoomsTables,
    PicturesTables,
    SecretsTables,
    HistoryTables,
    PassesTables,
    AlertsTables,
    NotificationsTables,
    PushTables {
  users: UsersTable;
}

/** API tokens (migration 0026). */
export interface Database extends ApiTokensTables {}

/** Scenes and automations (migrations 0023 to 0025). */
export interface Database extends ScenesTables, AutomationsTables {}

/** Each person's preferences (migration 0028). */
export interface Database extends PreferencesTables {}
