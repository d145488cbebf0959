/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break; a field a
 * spreadsheet would read as a formula (starting with = + - @, or a tab or carriage return) is
 * prefixed with ' so it stays text. The activity and history exports write their text through it.
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
