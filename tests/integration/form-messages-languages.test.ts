// Every 422 speaks the reader's language (issue 32 item 6): each mutating /api
// route is sent bad bodies in English, German and French, and no field message
// (nor the answer's message) of a German or French 422 may be the English one.
// It is a sweep over app/routes: a new route that is not probed here fails it,
// so a route whose messages stay English cannot slip in.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";

const EOD_TOKEN = "sweep-eod-token-0123456789abcdef";
const suite = useAppWithDatabase("form_messages", { SEED_DEMO_DATA: "1", EOD_API_TOKEN: EOD_TOKEN });

/**
 * Routes that take no input a 422 could answer, and so are not probed (a probe could only start their work):
 * a route added here needs its reason.
 */
const NO_INPUT: Record<string, string> = {
  "api.assignment.$id.ts": "DELETE only, no body read (any other method is a 405)",
  "api.generate_auto_assignment_file.ts": "starts its run; reads nothing",
  "api.import_assignment.ts": "imports the AS400's files; reads nothing",
  "api.special_order_pull.ts": "starts the pull; reads nothing",
  "api.eod_report_export.ts": "starts the export of what waits; reads nothing",
  "api.eod_report_retry.ts": "starts sending the failed batches again; reads nothing",
  "api.eod_report_retry.$token.ts": "the same, for a caller with the token",
};

/** An existing row for each kind of {id}, so the probe reaches the body's checks (an unknown id is a 404 first). */
const ID_OF: Record<string, string> = {
  attention: "SELECT min(id) AS id FROM attention_item",
  dropship_request: "SELECT min(request_id) AS id FROM dropship_request",
  dropship_response: "SELECT min(id) AS id FROM dropship_response",
  dropship_vendor: "SELECT min(id) AS id FROM dropship_vendor",
  feed: "SELECT min(id) AS id FROM feed",
  reassignment: "SELECT min(id) AS id FROM assignment WHERE assign_status IN (1, 2)",
  saved_views: "SELECT min(id) AS id FROM saved_view",
  special_order: "SELECT min(id) AS id FROM special_order",
  store: "SELECT min(id) AS id FROM inventory_source WHERE type = 'store'",
};

/** Bad values for the fields the forms have: wrong types, out of range, blank where required, unknown choices. */
const JUNK: Record<string, string> = {
  _method: "PUT",
  action: "no-such-action",
  id: "not-a-number",
  vendor_id: "not-a-number",
  assignment_id: "not-a-number",
  order_id: "",
  qty: "many",
  name: "",
  store_id: "not a code!",
  source_code: "",
  feed: "no_such_feed",
  cron_expression: "every now and then",
  enabled: "perhaps",
  sku: "",
  item_sku: "",
  ponum: "x".repeat(300),
  filepath: "",
  sftp_host: "not a host!",
  sftp_port: "port",
  sftp_user: "",
  transfer_mechanism_id: "9",
  tracking_number: "",
  tracking_carrier: "",
  po_number: "",
  ship_zip: "",
  country_id: "",
  lines: "not lines",
  filters: "not filters",
  grid: "no_such_grid",
  reason: "x".repeat(5000),
  fingerprint: "not a fingerprint",
  sales_date: "yesterday-ish",
  days: "several",
  location_id: "",
  category: "",
  tags: "",
  note: "x".repeat(5000),
};

type Probe = { label: string; body: () => { body: BodyInit; headers: Record<string, string> } };

const PROBES: Probe[] = [
  { label: "an empty JSON object", body: () => ({ body: "{}", headers: { "content-type": "application/json" } }) },
  { label: "bad values as JSON", body: () => ({ body: JSON.stringify(JUNK), headers: { "content-type": "application/json" } }) },
  { label: "a body that is not JSON", body: () => ({ body: "{ not json", headers: { "content-type": "application/json" } }) },
  {
    label: "bad values as a multipart form",
    body: () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(JUNK)) form.set(key, value);
      return { body: form, headers: {} };
    },
  },
];

const ROUTES_DIR = path.resolve("app/routes");
const mutatingRoutes = readdirSync(ROUTES_DIR)
  .filter((file) => file.startsWith("api.") && /\.tsx?$/.test(file))
  .filter((file) => /export const action\b|export (async )?function action\b/.test(readFileSync(path.join(ROUTES_DIR, file), "utf8")))
  .sort();

async function pathOf(file: string): Promise<string> {
  const segments = file.replace(/\.tsx?$/, "").split(".");
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "$id") {
      const kind = out[out.length - 1]!;
      const sql = ID_OF[kind];
      if (!sql) throw new Error(`${file}: no row for {id} of "${kind}": add it to ID_OF`);
      const [row] = await suite.db.$queryRawUnsafe<Array<{ id: number | null }>>(sql);
      if (!row?.id) throw new Error(`${file}: the demo data has no ${kind} row`);
      out.push(String(row.id));
    } else if (segment === "$token") out.push(EOD_TOKEN);
    else if (segment === "$grid") out.push("dropship_log");
    else if (segment.startsWith("$")) throw new Error(`${file}: no value for ${segment}`);
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

interface Answer {
  status: number;
  message?: string;
  errors?: Record<string, string[]>;
}

async function send(route: string, probe: Probe, locale: string): Promise<Answer> {
  const { body, headers } = probe.body();
  // Bad query parameters too: the EOD routes read theirs from the address (and never start with them).
  const response = await fetch(`${suite.app.url}${route}?locale=${locale}&sales_date=yesterday-ish&days=several&id=not-a-number`, {
    method: "POST",
    headers: { accept: "application/json", ...headers },
    body,
  });
  const text = await response.text();
  let parsed: Partial<Answer> = {};
  try {
    parsed = JSON.parse(text) as Partial<Answer>;
  } catch {
    // not JSON: no messages to compare
  }
  return { status: response.status, message: parsed.message, errors: parsed.errors };
}

describe("422 answers in the reader's language", () => {
  it("finds the mutating /api routes", () => {
    expect(mutatingRoutes.length).toBeGreaterThan(20);
    for (const file of Object.keys(NO_INPUT)) expect(mutatingRoutes, `${file} is listed in NO_INPUT but is not a route`).toContain(file);
  });

  for (const file of mutatingRoutes.filter((each) => !(each in NO_INPUT))) {
    it(`${file}: a 422 for bad input, its messages in German and French`, async () => {
      const route = await pathOf(file);
      let unprocessable = 0;
      const english: string[] = [];
      for (const probe of PROBES) {
        const en = await send(route, probe, "en");
        if (en.status !== 422) continue;
        unprocessable += 1;
        for (const locale of ["de", "fr"]) {
          const other = await send(route, probe, locale);
          expect(other.status, `${route} with ${probe.label} in ${locale}`).toBe(422);
          if (en.message) {
            if (other.message === en.message) english.push(`${locale} ${route} (${probe.label}) message: ${en.message}`);
          }
          for (const [field, messages] of Object.entries(en.errors ?? {})) {
            for (const text of other.errors?.[field] ?? []) {
              if (messages.includes(text)) english.push(`${locale} ${route} (${probe.label}) ${field}: ${text}`);
            }
          }
        }
      }
      expect(unprocessable, `${route}: none of the bad bodies was answered 422 (list it in NO_INPUT with the reason if it reads no input)`).toBeGreaterThan(0);
      expect(english, `English messages in German or French answers:\n${english.join("\n")}`).toEqual([]);
    }, 60_000);
  }
});
