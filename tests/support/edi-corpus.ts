// Where ../shared/edi-corpus is: next to the project (as the project sits in
// /work/main), or at EDI_CORPUS, or at /work/shared for clones made elsewhere.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function locate(): string {
  const candidates = [process.env.EDI_CORPUS, path.resolve(projectRoot, "../shared/edi-corpus"), "/work/shared/edi-corpus"].filter(
    (candidate): candidate is string => Boolean(candidate),
  );
  const found = candidates.find((candidate) => existsSync(path.join(candidate, "SOURCES.md")));
  if (!found) throw new Error(`The EDI corpus is not at any of: ${candidates.join(", ")}. Set EDI_CORPUS.`);
  return found;
}

export const EDI_CORPUS = locate();
