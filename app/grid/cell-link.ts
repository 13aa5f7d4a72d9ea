// A cell that opens the record it names (issue 32 item 3): a column's value shown
// as a link to a path filled from the row, "/order/{order_increment_id}". Shared
// by the server (which fields to read) and DataGrid (the link); also a GridLink
// whose path has {field}s goes there instead of path?name=value.

const PLACEHOLDER = /\{([a-z0-9_]+)\}/gi;

/** The row fields a path template names. */
export const pathFields = (template: string): string[] => [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/** The template filled from the row (each value URI-encoded), or null when a field it names is empty. */
export function fillPath(template: string, row: Record<string, unknown>): string | null {
  let missing = false;
  const path = template.replace(PLACEHOLDER, (_, field: string) => {
    const value = row[field];
    if (value === null || value === undefined || String(value) === "") missing = true;
    return encodeURIComponent(String(value ?? ""));
  });
  return missing ? null : path;
}
