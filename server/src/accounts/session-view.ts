import type { SessionView } from '@hearth/contracts';
import Bowser from 'bowser';
import type { AuthSessionRow } from './auth-sessions.repository.js';

const DEVICES: Record<string, string> = { desktop: 'Desktop', mobile: 'Phone', tablet: 'Tablet', tv: 'TV' };

/** What Settings shows of a session: browser and device read from its user agent (bowser). */
export function toSessionView(row: AuthSessionRow, currentId: string | undefined): SessionView {
  let browser = 'Unknown browser';
  let device = 'Unknown device';
  if (row.user_agent) {
    const parsed = Bowser.parse(row.user_agent);
    const name = parsed.browser.name;
    const os = parsed.os.name;
    if (name) browser = os ? `${name} on ${os}` : name;
    device = DEVICES[parsed.platform.type ?? ''] ?? device;
  }
  return {
    id: row.id,
    browser,
    device,
    ip: row.ip,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    current: row.id === currentId,
  };
}
