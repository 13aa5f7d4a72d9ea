import { describe, expect, it } from "vitest";
import { lacksClosingIea } from "./whole-files.server";

const isa = "ISA*00*          *00*          *ZZ*VENDOR         *ZZ*US             *240105*1022*U*00401*000000001*0*P*>~";
const whole = `${isa}GS*SH*VENDOR*US*20240105*1022*1*X*004010~ST*856*0001~SE*2*0001~GE*1*1~IEA*1*000000001~`;

describe("lacksClosingIea (D181)", () => {
  it("takes an X12 file that ends with its IEA, with a Ctrl-Z, line breaks or NULs after it", () => {
    expect(isa.length).toBe(106);
    for (const tail of ["", "\n", "\r\n", "\u001a", "\r\n\u001a", "\n\n  \u0000"]) expect(lacksClosingIea(Buffer.from(whole + tail))).toBe(false);
    // One segment a line, the terminator a line break.
    const lines = whole.replaceAll("~", "\n");
    expect(lacksClosingIea(Buffer.from(lines))).toBe(false);
    expect(lacksClosingIea(Buffer.from(`\ufeff${whole}`))).toBe(false);
  });

  it("leaves an X12 file cut anywhere before its IEA is whole", () => {
    for (const end of [50, 106, 150, whole.indexOf("IEA"), whole.length - 3, whole.length - 1]) {
      expect(lacksClosingIea(Buffer.from(whole.slice(0, end))), `cut at ${end}`).toBe(true);
    }
  });

  it("does not judge files that are not X12", () => {
    expect(lacksClosingIea(Buffer.from("sku,quantity\nA,1\n"))).toBe(false);
    expect(lacksClosingIea(Buffer.alloc(0))).toBe(false);
  });
});
