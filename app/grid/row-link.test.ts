import { describe, expect, it } from "vitest";
import { rowLinkFields, rowLinkUrl } from "./row-link";

describe("a grid row's own page", () => {
  it("fills the template with the row's values, encoded", () => {
    expect(rowLinkUrl({ path: "/dropship/requests/revise?id={request_id}" }, { request_id: 12 })).toBe("/dropship/requests/revise?id=12");
    expect(rowLinkUrl({ path: "/order/{order_increment_id}" }, { order_increment_id: "10 00/1" })).toBe("/order/10%2000%2F1");
  });

  it("opens nothing when a value is missing or the condition does not hold", () => {
    expect(rowLinkUrl({ path: "/order/{order_increment_id}" }, { order_increment_id: null })).toBeUndefined();
    const store = { path: "/stores/edit?id={id}", when: { field: "type", value: "store" } };
    expect(rowLinkUrl(store, { id: 3, type: "dropshipper" })).toBeUndefined();
    expect(rowLinkUrl(store, { id: 3, type: "store" })).toBe("/stores/edit?id=3");
    expect(rowLinkFields(store)).toEqual(["id", "type"]);
  });

  it("takes a whole value as the path only when it is a path of this app", () => {
    expect(rowLinkUrl({ path: "{link}" }, { link: "/feed/item?feed_name=x" })).toBe("/feed/item?feed_name=x");
    for (const link of ["https://evil.example", "//evil.example", "javascript:alert(1)", "/\\evil.example"])
      expect(rowLinkUrl({ path: "{link}" }, { link })).toBeUndefined();
  });
});
