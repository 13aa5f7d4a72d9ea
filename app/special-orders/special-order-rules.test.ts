// The special order rules the revise form, the server and the pull share
// (spec 001 §5), with the texts users read, in each language.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { firstItemFailure, isStateCode, readItems, shopifyRegion, specialOrderProblems, type TranslateText } from "./special-order-rules";

/** A `t` over the shipped locale file, with i18next's {{name}} interpolation. */
function translatorFor(language: "en" | "de" | "fr"): TranslateText {
  const texts = JSON.parse(readFileSync(`public/locales/${language}/common.json`, "utf8"));
  return (key, options = {}) => {
    const text = key.split(".").reduce((node, part) => node?.[part], texts);
    if (typeof text !== "string") throw new Error(`no text for ${key} in ${language}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(options[name]));
  };
}
const en = translatorFor("en");
const item = (overrides: Record<string, unknown> = {}) => ({ sku: "SKU-1", size: "9", width: "", price: "89.00", tax: "7.34", ...overrides });

describe("item rows (spec 001 §5)", () => {
  it("says the spec's messages, the first failure only, row by row", () => {
    expect(firstItemFailure([item()], en)).toBeNull();
    expect(firstItemFailure([item({ sku: " " })], en)).toBe("SKU is a required field.");
    expect(firstItemFailure([item({ size: "" })], en)).toBe("Size is a required field.");
    expect(firstItemFailure([item({ price: "" })], en)).toBe("Price is a required field.");
    expect(firstItemFailure([item({ price: "call store" })], en)).toBe("Price must be a number.");
    expect(firstItemFailure([item({ tax: undefined })], en)).toBe("Tax is a required field.");
    expect(firstItemFailure([item({ tax: "8%" })], en)).toBe("Tax must be a number.");
    // The whole first row is checked before the second; within a row, SKU before size before price before tax.
    expect(firstItemFailure([item({ size: "", price: "x" }), item({ sku: "" })], en)).toBe("Size is a required field.");
    expect(firstItemFailure([item(), item({ sku: "", tax: "x" })], en)).toBe("SKU is a required field.");
  });

  it("leaves width optional and takes plain decimal numbers only", () => {
    expect(firstItemFailure([item({ width: "" }), item({ width: "W" })], en)).toBeNull();
    for (const good of ["12", "12.5", ".50", "0", " 7.34 "]) expect(firstItemFailure([item({ price: good, tax: good })], en)).toBeNull();
    for (const bad of ["1e3", "12,50", "$5", "5 USD", "-"]) expect(firstItemFailure([item({ price: bad })], en)).toBe("Price must be a number.");
  });

  it("has the messages in German and French too", () => {
    expect(firstItemFailure([item({ sku: "" })], translatorFor("de"))).toBe("SKU ist ein Pflichtfeld.");
    expect(firstItemFailure([item({ price: "x" })], translatorFor("fr"))).toBe("Le prix doit être un nombre.");
  });
});

describe("the whole order (server and pull)", () => {
  const good = {
    customer_name: "Julie Tremblay",
    customer_email: "julie@example.com",
    customer_phone: "(514) 555-0123",
    customer_address_1: "300 Rue Saint-Paul",
    customer_address_city: "Montreal",
    customer_address_state_code: "PQ",
    customer_address_zip: "H2Y 1H2",
    shipping_cost: "19.95",
    items: [item()],
  };

  it("passes a complete order, and names every other problem per field with items first", () => {
    expect(specialOrderProblems(good, en)).toEqual({});
    const problems = specialOrderProblems(
      { ...good, items: [item({ tax: "" })], customer_name: "", customer_email: "julie@", customer_address_state_code: "XX", shipping_cost: "free" },
      en,
    );
    expect(Object.keys(problems)[0]).toBe("items");
    expect(problems).toEqual({
      items: ["Tax is a required field."],
      customer_name: ["Customer Name is a required field."],
      customer_email: ["'julie@' is not a valid email address."],
      customer_address_state_code: ["'XX' is not a US state, Canadian province or territory, or armed-forces code."],
      shipping_cost: ["Shipping Cost must be a number of 0 or more."],
    });
    expect(specialOrderProblems({ ...good, items: [] }, en).items).toEqual(["Add at least one item."]);
  });

  it("knows US, Canadian (PQ and NF included) and armed-forces codes, and sends Shopify the current ones", () => {
    for (const code of ["IL", "dc", "PR", "QC", "PQ", "NL", "NF", "YT", "AA", "AE", "AP"]) expect(isStateCode(code)).toBe(true);
    for (const code of ["XX", "", "USA", "EU"]) expect(isStateCode(code)).toBe(false);
    expect(shopifyRegion("PQ")).toEqual({ countryCode: "CA", provinceCode: "QC" });
    expect(shopifyRegion("nf")).toEqual({ countryCode: "CA", provinceCode: "NL" });
    expect(shopifyRegion("ON")).toEqual({ countryCode: "CA", provinceCode: "ON" });
    expect(shopifyRegion("AE")).toEqual({ countryCode: "US", provinceCode: "AE" });
  });

  it("reads items from the JSON string the form sends, and refuses what is not a list of items", () => {
    expect(readItems('[{"sku":"A","size":9,"price":10.5,"tax":0}]')).toEqual([{ sku: "A", size: "9", width: "", price: "10.5", tax: "0" }]);
    expect(readItems("not json")).toBeNull();
    expect(readItems('{"sku":"A"}')).toBeNull();
    expect(readItems("[1, 2]")).toBeNull();
  });
});
