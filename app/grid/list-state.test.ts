import { describe, expect, it } from "vitest";
import { apiQueryForListState, listStateFromSearch, searchForListState } from "./list-state";

const columns = [
  { key: "vendor_name", filter: "text" as const },
  { key: "status", filter: "select" as const },
  { key: "created_at", filter: "none" as const },
];
const defaults = { key: "id", dir: "desc" as const };

describe("grid list state", () => {
  it("reads page, sort and filters from the URL, with defaults", () => {
    const state = listStateFromSearch(new URLSearchParams("page=3&sort=vendor_name&sort_dir=asc&status=error&created_at=x&vendor_name=%20"), columns, defaults);
    expect(state).toEqual({ page: 3, sort: "vendor_name", sort_dir: "asc", queryValue: "", filters: { status: "error" } });
    expect(listStateFromSearch(new URLSearchParams("page=-2&sort_dir=up"), columns, defaults)).toMatchObject({ page: 1, sort: "id", sort_dir: "desc" });
  });

  it("writes the state back to the URL, keeping locale and Shopify's parameters", () => {
    const search = searchForListState(
      { page: 1, sort: "id", sort_dir: "desc", queryValue: " acme ", filters: { vendor_name: "Acme", status: "" } },
      new URLSearchParams("locale=de&host=abc&page=4&status=error"),
      columns,
    );
    expect(search.get("locale")).toBe("de");
    expect(search.get("host")).toBe("abc");
    expect(search.has("page")).toBe(false);
    expect(search.has("status")).toBe(false);
    expect(search.get("queryValue")).toBe("acme");
    expect(search.get("vendor_name")).toBe("Acme");
  });

  it("never sends blank filters to the API", () => {
    const query = apiQueryForListState({ page: 2, sort: "id", sort_dir: "asc", queryValue: "  ", filters: { vendor_name: " ", status: "error" } }, "fr");
    expect(query.toString()).toBe("page=2&sort=id&sort_dir=asc&status=error&locale=fr");
  });
});
