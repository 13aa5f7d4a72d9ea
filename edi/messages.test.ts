import { describe, expect, it } from "vitest";
import { nameControls, phraseFrom } from "./messages";

describe("control characters in messages (D218)", () => {
  it("names raw control characters and JSON.stringify's escapes of them, and leaves the rest", () => {
    expect(nameControls("IEA*1*000000001\u001a")).toBe("IEA*1*000000001<SUB>");
    expect(nameControls("\u0000\u001b[31m\u007f")).toBe("<NUL><ESC>[31m<DEL>");
    expect(nameControls(JSON.stringify("a\u001db"))).toBe('"a<GS>b"');
    // An escaped backslash before "u001a" is text, not an escape.
    expect(nameControls(JSON.stringify("\\u001a"))).toBe('"\\\\u001a"');
    expect(nameControls("Illinois é ~ *")).toBe("Illinois é ~ *");
  });

  it("a file's value inside one of our sentences is shown named, in English and as a parameter", () => {
    const phrase = phraseFrom({ fault: { outside: "{{segment}} outside an interchange" } }, "fault.outside", { segment: "\u001aJU" });
    expect(phrase.text).toBe("<SUB>JU outside an interchange");
    expect(phrase.coded).toEqual({ code: "edi.fault.outside", params: { segment: "<SUB>JU" } });
  });
});
