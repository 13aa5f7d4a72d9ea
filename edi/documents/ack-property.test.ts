// Property (D73): every 997 and TA1 built from a mutated corpus file reads back
// with readX12 without faults, and each 997 passes parse997. Seeded, a few
// hundred cases; `npm run bench:edi` runs more (bench/edi/hostile-acks.ts).
import { describe, expect, it } from "vitest";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";
import { checkAcknowledgements, corpusFiles, mutate, seeded } from "./ack-property";

describe("acknowledgements built from mutated corpus files", () => {
  const files = corpusFiles(EDI_CORPUS);

  it("finds the corpus", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it("every 997 and TA1 reads back clean (300 seeded mutations)", () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed * 7919);
      const file = files[Math.floor(random() * files.length)];
      const { text, how } = mutate(file.text, random, 200_000);
      const problems = checkAcknowledgements(text);
      if (problems.length) failures.push(`seed ${seed * 7919} ${file.name} [${how.join(", ")}]: ${problems.slice(0, 3).join("; ")}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("the unmutated corpus too", () => {
    for (const file of files) expect(checkAcknowledgements(file.text), file.name).toEqual([]);
  });
});
