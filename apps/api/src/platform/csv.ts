/** CSV answers (the audit log, the desk's reports): one cell that a spreadsheet opens as text. */

/** One CSV cell: formula-looking text made inert, then quoted when it holds a separator or quote. */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
