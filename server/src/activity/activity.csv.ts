import type { ActivityRow } from './activity.repository.js';

/** The export's columns (docs/activity.md#export). */
export const CSV_HEADER = 'time,actor_type,actor_id,actor,ip,client,kind,device_id,room_id,result,detail\r\n';

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break; a field a
 * spreadsheet would read as a formula (starting with = + - @, or a tab or carriage return) is
 * prefixed with ' so it stays text.
 */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(row: ActivityRow): string {
  return `${[
    row.at,
    row.actor_type,
    row.actor_id,
    row.actor_label,
    row.ip,
    row.client,
    row.kind,
    row.device_id,
    row.room_id,
    row.result,
    row.detail === '{}' ? '' : row.detail,
  ]
    .map(csvField)
    .join(',')}\r\n`;
}
