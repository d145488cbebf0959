import type { Migration } from 'kysely';
import { migration as m0001 } from './0001_users.js';
import { migration as m0002 } from './0002_accounts.js';
import { migration as m0003 } from './0003_devicehub.js';
import { migration as m0004 } from './0004_identities.js';
import { migration as m0005 } from './0005_devicehub_removed.js';
import { migration as m0006 } from './0006_rate_limits.js';
import { migration as m0007 } from './0007_sessions_lockout.js';
import { migration as m0008 } from './0008_rooms.js';
import { migration as m0009 } from './0009_profile_pictures.js';
import { migration as m0010 } from './0010_shared_secrets.js';
import { migration as m0011 } from './0011_device_presence.js';
import { migration as m0012 } from './0012_history.js';
import { migration as m0013 } from './0013_activity.js';
import { migration as m0014 } from './0014_access_rules.js';
import { migration as m0015 } from './0015_passes.js';
import { migration as m0016 } from './0016_session_authenticated_at.js';
import { migration as m0020 } from './0020_alerts.js';
import { migration as m0021 } from './0021_notifications.js';
import { migration as m0022 } from './0022_push.js';
import { migration as m0023 } from './0023_scenes.js';
import { migration as m0024 } from './0024_automations.js';
import { migration as m0025 } from './0025_automation_runs.js';
import { migration as m0026 } from './0026_api_tokens.js';
import { migration as m0027 } from './0027_activity_actor_owner.js';
import { migration as m0028 } from './0028_user_preferences.js';
import { migration as m0029 } from './0029_device_states.js';

/**
 * Every migration, in order. Names are zero-padded so they sort; never rename or edit one that
 * has shipped: add a new file instead. Listed statically so the bundled server needs no folder.
 */
export const migrations: Record<string, Migration> = {
  '0001_users': m0001,
  '0002_accounts': m0002,
  '0003_devicehub': m0003,
  '0004_identities': m0004,
  '0005_devicehub_removed': m0005,
  '0006_rate_limits': m0006,
  '0007_sessions_lockout': m0007,
  '0008_rooms': m0008,
  '0009_profile_pictures': m0009,
  '0010_shared_secrets': m0010,
  '0011_device_presence': m0011,
  '0012_history': m0012,
  '0013_activity': m0013,
  '0014_access_rules': m0014,
  '0015_passes': m0015,
  '0016_session_authenticated_at': m0016,
  '0020_alerts': m0020,
  '0021_notifications': m0021,
  '0022_push': m0022,
  '0023_scenes': m0023,
  '0024_automations': m0024,
  '0025_automation_runs': m0025,
  '0026_api_tokens': m0026,
  '0027_activity_actor_owner': m0027,
  '0028_user_preferences': m0028,
  '0029_device_states': m0029,
};
