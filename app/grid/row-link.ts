// A grid row's own page (D273): the grid definition declares it as a path
// template, "/dropship/requests/revise?id={request_id}", each {key} a value of
// the row; the browser fills it in for each row (ListTable opens it on a click
// or Enter). A template that is one {key} alone takes the row's value as the
// path (a Needs attention item's link), only when it is a path of this app.

export interface RowLink {
  path: string;
  /** Only rows whose `field` is `value` open a page (a store, not a dropshipper, on Stores). */
  when?: { field: string; value: string };
}

const PLACEHOLDER = /\{([a-z0-9_]+)\}/gi;

/** The row keys a template reads. */
export function rowLinkFields(link: RowLink): string[] {
  const fields = [...link.path.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  return link.when ? [...fields, link.when.field] : fields;
}

const isAppPath = (value: string) => value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\");

/** The row's page, or undefined when the row lacks a value the template needs. */
export function rowLinkUrl(link: RowLink, row: Record<string, unknown>): string | undefined {
  if (link.when && String(row[link.when.field] ?? "") !== link.when.value) return undefined;
  const whole = /^\{([a-z0-9_]+)\}$/i.exec(link.path);
  if (whole) {
    const value = String(row[whole[1]!] ?? "");
    return isAppPath(value) ? value : undefined;
  }
  let missing = false;
  const url = link.path.replace(PLACEHOLDER, (_, field: string) => {
    const value = row[field];
    if (value === null || value === undefined || String(value) === "") missing = true;
    return encodeURIComponent(String(value ?? ""));
  });
  return missing ? undefined : url;
}
