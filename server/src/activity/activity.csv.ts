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
  // indexOf and a char code rather than regular expressions: the export runs this a million times.
  const first = value.charCodeAt(0);
  const formula = first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13;
  const text = formula ? `'${value}` : value;
  const quote = text.indexOf('"') !== -1;
  if (quote || text.indexOf(',') !== -1 || text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1) {
    return `"${quote ? text.replaceAll('"', '""') : text}"`;
  }
  return text;
}

export function csvLine(row: ActivityRow): string {
  // Time, actor type, kind and result are Hearth's own (ISO time, fixed words): no quoting needed.
  return `${row.at},${row.actor_type},${csvField(row.actor_id)},${csvField(row.actor_label)},${csvField(row.ip)},${csvField(row.client)},${row.kind},${csvField(row.device_id)},${csvField(row.room_id)},${row.result},${row.detail === '{}' ? '' : csvField(row.detail)}\r\n`;
}
