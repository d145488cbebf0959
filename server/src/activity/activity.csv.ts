import { csvField } from '../shared/csv.js';
import type { ActivityRow } from './activity.repository.js';

export { csvField };

/** The export's columns (docs/activity.md#export). */
export const CSV_HEADER = 'time,actor_type,actor_id,actor,ip,client,kind,device_id,room_id,result,detail\r\n';

export function csvLine(row: ActivityRow): string {
  // Time, actor type, kind and result are Hearth's own (ISO time, fixed words): no quoting needed.
  return `${row.at},${row.actor_type},${csvField(row.actor_id)},${csvField(row.actor_label)},${csvField(row.ip)},${csvField(row.client)},${row.kind},${csvField(row.device_id)},${csvField(row.room_id)},${row.result},${row.detail === '{}' ? '' : csvField(row.detail)}\r\n`;
}
