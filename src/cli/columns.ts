// Rows of cells padded into columns for the human output of the commands. Cells must already be made visible
// (visibleText): columns are measured on the text as it is shown, by code points.
export function columns(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...r[c]].length)));
  return rows.map((r) => r.map((cell, c) => cell + ' '.repeat(widths[c] - [...cell].length)).join('  ').trimEnd()).join('\n');
}
