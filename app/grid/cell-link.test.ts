import { describe, expect, it } from "vitest";
import { fillPath, pathFields } from "./cell-link";

describe("a cell's link (issue 32, D261)", () => {
  it("names the row fields of its template", () => {
    expect(pathFields("/order/{order_increment_id}")).toEqual(["order_increment_id"]);
    expect(pathFields("/dropship/vendor/edit?id={vendor_id}&po={po_number}")).toEqual(["vendor_id", "po_number"]);
    expect(pathFields("/dropship/requests/revise")).toEqual([]);
  });

  it("fills the template from the row, each value encoded, and gives none when a field is empty", () => {
    expect(fillPath("/order/{order_increment_id}", { order_increment_id: "100000123" })).toBe("/order/100000123");
    expect(fillPath("/order/{order_increment_id}", { order_increment_id: "../x?y#z" })).toBe("/order/..%2Fx%3Fy%23z");
    expect(fillPath("/file/{transmission_id}", { transmission_id: 42 })).toBe("/file/42");
    expect(fillPath("/file/{transmission_id}", { transmission_id: null })).toBeNull();
    expect(fillPath("/file/{transmission_id}", {})).toBeNull();
    expect(fillPath("/order/{order_id}", { order_id: "" })).toBeNull();
  });
});
