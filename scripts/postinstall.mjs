#!/usr/bin/env node
// npm's postinstall: the Prisma clients (docs/decisions.md D81).
// - In a checkout (development, CI, the image's build stage) both clients are
//   generated from prisma/schema.prisma, offline (scripts/prisma.mjs).
// - What ships (npm ci --omit=dev beside build/, no schema) generates nothing:
//   the app's own client is compiled into build/, and the classic one, which
//   the Shopify session storage loads through @prisma/client, is copied from
//   build/prisma-client, where `npm run build` packed it. So the build must be
//   in place before that install.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (existsSync(path.join(root, "prisma/schema.prisma"))) {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/prisma.mjs"), "generate"], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const packed = path.join(root, "build/prisma-client");
if (!existsSync(path.join(packed, "index.js"))) {
  console.error(
    "postinstall: no prisma/schema.prisma to generate the Prisma client from, and no build/prisma-client to use instead. " +
      "Run `npm ci && npm run build` first, then `npm ci --omit=dev` with build/ in place (the Dockerfile does).",
  );
  process.exit(1);
}
// Where @prisma/client looks for it.
const target = path.join(root, "node_modules/.prisma/client");
rmSync(target, { recursive: true, force: true });
cpSync(packed, target, { recursive: true });
console.log("postinstall: the Prisma client comes from build/prisma-client");
