import { describe, expect, it } from "vitest";
import { summaryJson, SUMMARY_CHARS, userErrorsIn } from "~/shopify/call-records.server";
import { CatalogFileError, readCatalogFile } from "./catalog-file.server";
import { tagsOf } from "./products.server";

describe("a mapping's tags", () => {
  it("are split on commas, trimmed, blanks dropped, one of each ignoring case", () => {
    expect(tagsOf(" hiking,Outdoor ,, HIKING , trail running,")).toEqual(["hiking", "Outdoor", "trail running"]);
    expect(tagsOf(" , ,")).toEqual([]);
    expect(tagsOf(null)).toEqual([]);
  });
});

describe("summaries of Shopify calls", () => {
  it("keep short JSON as it is and cut long JSON to its beginning, never through a character", () => {
    expect(JSON.parse(summaryJson({ variables: { id: 1 } }))).toEqual({ variables: { id: 1 } });
    const emoji = "🥾".repeat(SUMMARY_CHARS);
    const cut = JSON.parse(summaryJson(emoji)) as { truncated: boolean; chars: number; text: string };
    expect(cut).toMatchObject({ truncated: true, chars: emoji.length + 2 });
    expect(cut.text.length).toBeLessThanOrEqual(SUMMARY_CHARS);
    // No half of a character at the end (a lone high surrogate).
    const last = cut.text.charCodeAt(cut.text.length - 1);
    expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    expect(summaryJson(undefined)).toBe("null");
    expect(summaryJson({ big: 1n })).toBe('{"unserialisable":true}');
  });

  it("find the userErrors of any mutation's answer", () => {
    expect(userErrorsIn({ tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Product does not exist" }, { message: "Tags is invalid" }] } })).toBe(
      "Product does not exist; Tags is invalid",
    );
    expect(userErrorsIn({ tagsAdd: { node: { id: "x" }, userErrors: [] } })).toBeNull();
    expect(userErrorsIn({ shop: { name: "Demo" } })).toBeNull();
    expect(userErrorsIn(null)).toBeNull();
  });
});

describe("the AS400 product catalogue file", () => {
  it("reads the columns it knows under any spelling, and reports bad rows by line", () => {
    const file = readCatalogFile(
      "\uFEFFSKU,Product Name,Name,Category-ID,PRICE,status\r\nA1,x,Boot,C1,12.5,Draft\r\nA2,x,,C1,3,active\r\nA3,x,Mug,,1.999,active\r\nA4,x,Cap,,4,gone\r\n",
    );
    expect(file.columns).toEqual(["as400_category_id", "price", "status"]);
    expect(file.rows).toEqual([{ line: 2, sku: "A1", name: "Boot", values: { as400_category_id: "C1", price: "12.5", status: "draft" } }]);
    expect(file.errors).toEqual([
      "line 3, name: empty",
      'line 4, price: "1.999" is not an amount (12.95)',
      'line 5, status: "gone" is not one of active, draft, archived',
    ]);
  });

  it("refuses a file without sku and name, or with a column named twice", () => {
    expect(() => readCatalogFile("sku,price\nA1,3\n")).toThrow(CatalogFileError);
    expect(() => readCatalogFile("sku,name,category,as400_category_id\n")).toThrow("named twice");
    expect(() => readCatalogFile("\n\n")).toThrow("empty");
  });
});
