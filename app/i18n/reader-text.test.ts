// Words in an answer are chosen when it meets its reader (D136): the domain
// puts ReaderTexts where words go, and the edge renders them all in one pass.
import { beforeAll, describe, expect, it } from "vitest";
import { i18nServer } from "./i18n.server";
import { message, ReaderJson, readerKey, renderForReader, storedForReader, type MessageTranslate } from "./messages";

const t = {} as Record<"en" | "de", MessageTranslate>;
beforeAll(async () => {
  for (const language of ["en", "de"] as const) t[language] = (await i18nServer.getFixedT(language, "common")) as unknown as MessageTranslate;
});

describe("renderForReader", () => {
  it("renders every ReaderText in arrays and plain objects, in the reader's language", () => {
    const answer = { columns: [{ key: "type", label: readerKey("feeds.log_columns.type"), options: { failed: readerKey("feeds.types.failed") } }], total: 1 };
    expect(renderForReader(t.de, answer)).toEqual({ columns: [{ key: "type", label: "Typ", options: { failed: "Fehlgeschlagen" } }], total: 1 });
    expect(renderForReader(t.en, answer).columns[0].label).toBe("Type");
  });

  it("keeps the keys' order, and leaves data alone", () => {
    const when = new Date("2026-11-26T12:00:00Z");
    const rendered = renderForReader(t.en, { a: 1, label: readerKey("feeds.log_columns.type"), when, jsonb: { code: "feeds.types.failed" } });
    expect(Object.keys(rendered)).toEqual(["a", "label", "when", "jsonb"]);
    expect(rendered.when).toBe(when);
    // A plain object that looks like a message is data: only ReaderTexts are words.
    expect(rendered.jsonb).toEqual({ code: "feeds.types.failed" });
  });

  it("gives back what holds no words as it was, the same object", () => {
    const answer = { data: [{ id: 1, name: "x" }], columns: [] };
    expect(renderForReader(t.de, answer)).toBe(answer);
  });

  it("renders a stored message from its code, else its text, and JSON values after their words", () => {
    expect(renderForReader(t.de, storedForReader(message("feeds.types.failed"), "failed"))).toBe("Fehlgeschlagen");
    expect(renderForReader(t.de, storedForReader(null, "as written"))).toBe("as written");
    expect(renderForReader(t.de, storedForReader(null, null))).toBe("");
    expect(renderForReader(t.de, new ReaderJson({ n: 2, message: readerKey("feeds.types.failed") }))).toBe('{"n":2,"message":"Fehlgeschlagen"}');
  });
});
