// The generic grid, proven on Drop Shipping Logs against the real database.
import { beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { dropshipLogGrid } from "../../app/dropship/grids.server";
import { listDropshipLogs } from "../../app/dropship/logs.server";
import { runGrid } from "../../app/grid/grid.server";
import { i18nServer, type Translate } from "../../app/i18n/i18n.server";
import { renderForReader } from "../../app/i18n/messages";
import { renderFieldErrors, ValidationError } from "../../app/lib/validation.server";

let t: Translate;
const VENDORS = ["Acme Outdoor Supply", "Brightline Footwear", "Cascade Apparel Co"];

beforeAll(async () => {
  t = await i18nServer.getFixedT("en", "common");
  await prisma.dropshipLog.deleteMany();
  await prisma.dropshipLog.createMany({
    data: Array.from({ length: 45 }, (_, i) => ({
      vendor_name: VENDORS[i % 3],
      action: i % 2 ? "send_requests" : "populate_requests",
      status: i % 7 === 0 ? "error" : "success",
      po_number: `PO${1000 + i}`,
      item_sku: `SKU-${i % 5}`,
      qty: 1 + (i % 4),
      message: i === 7 ? "Could not parse 856 at segment 9 (SE)" : `Created ship request PO${1000 + i}`,
      created_at: new Date(Date.UTC(2026, 10, 1) + i * 3600_000),
    })),
  });
});

const list = (query: string) => listDropshipLogs(new URLSearchParams(query)).then((answer) => renderForReader(t, answer));
const ids = (rows: Array<Record<string, unknown>>) => rows.map((row) => row.id as number);

async function validationErrors(query: string) {
  const error = await list(query).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  // As the 422 says them (D127: the problems are codes until rendered).
  return renderFieldErrors(t, (error as ValidationError).errors);
}

describe("Drop Shipping Logs grid", () => {
  it("answers page 1 sorted by id descending, 20 rows, in the spec's shape", async () => {
    const answer = await list("");
    expect(answer.data.total).toBe(45);
    expect(answer.data.last_page).toBe(3);
    expect(answer.data.current_page).toBe(1);
    expect(answer.data.data).toHaveLength(20);
    const all = await prisma.dropshipLog.findMany({ orderBy: { id: "desc" }, select: { id: true } });
    expect(ids(answer.data.data)).toEqual(all.slice(0, 20).map((row) => row.id));
    const vendor = answer.columns.find((column) => column.key === "vendor_name")!;
    expect(vendor).toMatchObject({ label: "Vendor", dataType: "text", filter: "text", sortable: true });
    const status = answer.columns.find((column) => column.key === "status")!;
    // A status: each value's Badge tone comes with the column (D120).
    expect(status).toMatchObject({
      dataType: "select",
      filter: "select",
      options: { error: "Error", success: "Success" },
      tones: { error: "critical", success: "success" },
    });
  });

  it("pages without overlap and sorts by any sortable column", async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(`page=${page}&sort=vendor_name&sort_dir=asc`)));
    const seen = pages.flatMap((answer) => ids(answer.data.data));
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    expect(pages[2].data.data).toHaveLength(5);
    const names = pages.flatMap((answer) => answer.data.data.map((row) => row.vendor_name as string));
    expect(names).toEqual([...names].sort());
    const asc = await list("sort=id&sort_dir=ASC");
    expect(ids(asc.data.data)).toEqual([...ids(asc.data.data)].sort((a, b) => a - b));
  });

  it("filters by text (any case), by option and by the global search", async () => {
    const acme = await list("vendor_name=acme");
    expect(acme.data.total).toBe(15);
    expect(acme.data.data.every((row) => row.vendor_name === "Acme Outdoor Supply")).toBe(true);
    const errors = await list("status=error");
    expect(errors.data.total).toBe(7);
    const both = await list("status=error&vendor_name=acme");
    expect(both.data.total).toBe(3); // ids 0, 21, 42
    const search = await list("queryValue=segment%209");
    expect(search.data.data.map((row) => row.message)).toEqual(["Could not parse 856 at segment 9 (SE)"]);
    const byPo = await list("queryValue=PO1044");
    expect(byPo.data.total).toBe(1);
    const none = await list("queryValue=nothing-like-this");
    expect(none.data).toMatchObject({ total: 0, last_page: 1, data: [] });
  });

  it("ignores blank, null and empty-list filters", async () => {
    for (const query of ["vendor_name=", "vendor_name=%20%20", "vendor_name=null", "status[]=", "status=[]", "queryValue="]) {
      expect((await list(query)).data.total, query).toBe(45);
    }
    expect((await list("status[]=error&status[]=success")).data.total).toBe(45);
  });

  it("answers bad list requests with per-field messages", async () => {
    expect(await validationErrors("sort=nope")).toEqual({
      sort: [expect.stringContaining("Cannot sort by 'nope'")],
    });
    expect(Object.keys(await validationErrors("page=0&sort_dir=up&per_page=500"))).toEqual(["page", "per_page", "sort_dir"]);
    expect((await validationErrors("page=abc")).page).toHaveLength(1);
    expect((await validationErrors("status=lost")).status[0]).toContain("'lost' is not one of");
    expect((await validationErrors("sort=message")).sort).toHaveLength(1);
  });

  it("reads the same pages whether a filter is read in one step or two", async () => {
    const oneStep = { ...dropshipLogGrid, selectiveFilterRows: 0 };
    for (const query of [
      "vendor_name=acme&sort=qty&sort_dir=asc&page=2&per_page=5",
      "queryValue=PO10&page=3&per_page=4",
      "status=error&sort=created_at&per_page=3",
    ]) {
      const params = new URLSearchParams(query);
      const [twoSteps, single] = await Promise.all([runGrid(dropshipLogGrid, params), runGrid(oneStep, params)]);
      expect(twoSteps.data.data.length, query).toBeGreaterThan(0);
      expect(twoSteps.data, query).toEqual(single.data);
    }
  });
});
