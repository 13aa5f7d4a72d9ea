#!/usr/bin/env node
// The last step of `npm run build`: a copy of the classic Prisma client
// (node_modules/.prisma/client, generated at install) in build/prisma-client.
// A production install (npm ci --omit=dev) has no Prisma CLI to generate it,
// and @shopify/shopify-app-session-storage-prisma loads it through
// @prisma/client at run time: scripts/postinstall.mjs puts this copy in place
// (docs/decisions.md D81).
import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const generated = path.join(root, "node_modules/.prisma/client");
const packed = path.join(root, "build/prisma-client");

if (!existsSync(path.join(generated, "index.js"))) {
  console.error(`build: no generated Prisma client in ${generated}: run \`node scripts/prisma.mjs generate\` (npm ci does).`);
  process.exit(1);
}
rmSync(packed, { recursive: true, force: true });
// The TypeScript declarations (2 MB) serve no one at run time.
cpSync(generated, packed, { recursive: true, filter: (source) => !source.endsWith(".d.ts") });
