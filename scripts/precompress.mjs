#!/usr/bin/env node
// A step of `npm run build`: every script, style, text file and SVG of
// build/client gets a brotli (.br, quality 11) and a gzip (.gz, level 9) copy
// beside it, kept only when smaller. The web process serves those copies as
// they are (server/static-files.ts), so a cold page costs it no compression
// work per request and the browser gets the smallest encoding (D245).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "build/client");
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".json", ".svg", ".txt", ".html", ".xml"]);
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.has(path.extname(entry.name)) && statSync(full).size >= MIN_BYTES) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for (const file of files(root)) {
  const content = readFileSync(file);
  const brotli = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const gzip = gzipSync(content, { level: 9 });
  if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
  if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
  count += 1;
  before += content.length;
  after += Math.min(brotli.length, content.length);
}
console.log(`precompressed ${count} files of build/client: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB in brotli`);
