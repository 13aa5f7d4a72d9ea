// The AS400's special-order file (docs/as400-files.md): tickets from item rows,
// and the documented example read as the documentation says.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSpecialOrderFile } from "./special-order-file.server";

describe("special-order file", () => {
  it("reads the documented example: three tickets, the first with two items", () => {
    const doc = readFileSync("docs/as400-files.md", "utf8");
    const section = doc.slice(doc.indexOf("## Special-order file"));
    const example = /```csv\n([\s\S]*?)```/.exec(section)![1];
    const file = readSpecialOrderFile(example);
    expect(file.errors).toEqual([]);
    expect(file.tickets.map((ticket) => [ticket.fields.store_id, ticket.fields.store_ticket, ticket.items.length])).toEqual([
      ["001", "T-70412", 2],
      ["002", "T-70413", 1],
      ["004", "T-70414", 1],
    ]);
    expect(file.tickets[0].fields.customer_name).toBe("Maria Lopez");
    expect(file.tickets[0].items[1]).toEqual({ sku: "SKU-10002", size: "9.5", width: "W", price: "89.00", tax: "7.34" });
    expect(file.tickets[1].fields.customer_address_state_code).toBe("PQ");
    expect(file.tickets[2].items[0].price).toBe("call store");
  });

  it("groups rows of a ticket wherever they are, takes header names loosely, and reports rows without a ticket", () => {
    const file = readSpecialOrderFile(
      "\uFEFFStore ID,Store-Ticket,SKU,Size,Price,Tax,Customer Name,extra\r\n" +
        "1,A,S1,9,10,1,Ann,x\r\n" +
        "2,B,S2,8,20,2,Bob,x\r\n" +
        ",C,S3,7,30,3,Cy,x\r\n" +
        '1,A,S4,10,"1,000.00",0,,x\r\n',
    );
    expect(file.tickets.map((ticket) => [ticket.fields.store_ticket, ticket.line, ticket.items.map((i) => i.sku)])).toEqual([
      ["A", 2, ["S1", "S4"]],
      ["B", 3, ["S2"]],
    ]);
    expect(file.tickets[0].fields.customer_name).toBe("Ann");
    expect(file.tickets[0].items[1].price).toBe("1,000.00"); // read as written; the rules judge it
    expect(file.errors).toEqual(["line 4: store_id is empty, so the row belongs to no ticket"]);
  });

  it("refuses what is not a special-order file", () => {
    expect(() => readSpecialOrderFile("")).toThrow("the file is empty");
    expect(() => readSpecialOrderFile("order_id,status\n1,x\n")).toThrow(
      "not a special-order file: missing required columns store_id, store_ticket, sku (the header row has: order_id, status)",
    );
    expect(() => readSpecialOrderFile("store_id,store_ticket,sku,sku\n")).toThrow("the column sku is named twice");
  });
});
