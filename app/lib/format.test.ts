import { describe, expect, it } from "vitest";
import { formatDateTime, formatMoney, formatSkus, isAbsoluteUrl, orNotAvailable, titleCase, withLocale } from "./format";

describe("shared formatters", () => {
  it("shows money in USD with $", () => {
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney("19.9")).toBe("$19.90");
    expect(formatMoney(null)).toBe("");
  });

  it("shows dates as US short date plus short time in the app's time zone", () => {
    expect(formatDateTime("2026-11-21T20:44:00Z", "America/New_York")).toBe("11/21/26, 3:44 PM");
    expect(formatDateTime("2026-07-04T12:05:00Z", "UTC")).toBe("7/4/26, 12:05 PM");
    expect(formatDateTime("not a date")).toBe("not a date");
    expect(formatDateTime(null)).toBe("");
  });

  it("title-cases status and source values", () => {
    expect(titleCase("avs_pending")).toBe("AVS Pending");
    expect(titleCase("processing")).toBe("Processing");
    expect(titleCase("AMAZON_US")).toBe("Amazon US");
    expect(titleCase("EBAY_STORES")).toBe("Ebay Stores");
    expect(titleCase("")).toBe("");
  });

  it("puts a space after each comma in SKUs and shows missing values as --n/a--", () => {
    expect(formatSkus("A1,B2,C3")).toBe("A1, B2, C3");
    expect(orNotAvailable(null)).toBe("--n/a--");
    expect(orNotAvailable("")).toBe("--n/a--");
    expect(orNotAvailable(0)).toBe("0");
  });

  it("tells absolute links from in-app ones and carries the locale on in-app links", () => {
    expect(isAbsoluteUrl("https://admin.shopify.com/store/x")).toBe(true);
    expect(isAbsoluteUrl("//cdn.example.com/a.js")).toBe(true);
    expect(isAbsoluteUrl("/dropship/logs/")).toBe(false);
    expect(withLocale("/dropship/logs/", "?locale=de")).toBe("/dropship/logs/?locale=de");
    expect(withLocale("/x?id=4#top", "?locale=fr&page=2")).toBe("/x?id=4&locale=fr#top");
    expect(withLocale("/x?locale=en", "?locale=fr")).toBe("/x?locale=en");
    expect(withLocale("https://example.com/", "?locale=de")).toBe("https://example.com/");
    expect(withLocale("/x", "")).toBe("/x");
  });
});
