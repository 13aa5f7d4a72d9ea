// Amounts inside stored log sentences are formatted for the reader's language
// when read (D125): the row keeps the amount and its currency, not a "$" text.
import { beforeAll, describe, expect, it } from "vitest";
import { englishText, logMessage } from "./english.server";
import { i18nServer } from "./i18n.server";
import { formatMoney, message, money, renderMessage, renderStored, type MessageTranslate } from "./messages";

const t = {} as Record<"en" | "de" | "fr", MessageTranslate>;
beforeAll(async () => {
  for (const language of ["en", "de", "fr"] as const) t[language] = (await i18nServer.getFixedT(language, "common")) as unknown as MessageTranslate;
});

// Intl separates the amount and the symbol with a no-break space (U+00A0) and
// French groups with a narrow no-break space (U+202F); compared as plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("money in a message", () => {
  it("is formatted by Intl in the reader's language", () => {
    expect(formatMoney("en", money(1234.5))).toBe("$1,234.50");
    expect(plain(formatMoney("de", money(1234.5)))).toBe("1.234,50 $");
    expect(plain(formatMoney("fr", money(1234.5)))).toBe("1 234,50 $US");
    expect(formatMoney("en", money(-5))).toBe("-$5.00");
  });

  it("reads in each language inside a Realtime Sales Log line, the English text written with it", () => {
    const line = logMessage("logs.realtime.invoice.created", { amount: money(1234.5), order: "100000123", status: "paid" });
    expect(line.message).toBe("Invoice of $1,234.50 for order 100000123 created (paid).");
    // Stored as the amount and its currency, not as text.
    expect(line.message_code).toEqual({
      code: "logs.realtime.invoice.created",
      params: { amount: { money: "1234.50", currency: "USD" }, order: "100000123", status: "paid" },
    });
    const stored = JSON.parse(JSON.stringify(line.message_code));
    expect(plain(renderStored(t.de, "de", stored, line.message))).toBe("Rechnung über 1.234,50 $ für Bestellung 100000123 erstellt (paid).");
    expect(plain(renderStored(t.fr, "fr", stored, line.message))).toContain("1 234,50 $US");
  });

  it("formats the amount of a drop-ship 810 line, nested in its sentence", () => {
    const line = message("logs.dropship.invoice", {
      invoice: "INV-1",
      qty: 2,
      sku: "BOOT-42",
      po: "PO1",
      amount: message("logs.dropship.invoice_money", { amount: money(1234.5) }),
      unknown: "",
    });
    expect(englishText(line)).toBe("810: invoice INV-1 bills 2 x BOOT-42 of PO PO1 for $1,234.50.");
    expect(plain(renderMessage(t.de, "de", line))).toContain("über 1.234,50 $");
  });

  it("keeps rows written before as they read then", () => {
    // The old parameter was the text "$12.50", and the old drop-ship key put "$" before a bare amount.
    expect(renderStored(t.de, "de", { code: "logs.realtime.invoice.created", params: { amount: "$12.50", order: "1", status: "paid" } }, null)).toContain(
      "$12.50",
    );
    expect(renderStored(t.de, "de", { code: "logs.dropship.invoice_amount", params: { amount: "12.50" } }, null)).toBe(" über 12.50 $");
  });
});
