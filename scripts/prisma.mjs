#!/usr/bin/env node
// Runs the Prisma CLI fully offline. Prisma 6 wants native engines it would
// download; with `engineType = "client"` and the pg driver adapter it never uses
// them, so any existing file satisfies the check (see docs/decisions.md, D2).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const args = process.argv.slice(2);
const cli = require.resolve("prisma/build/index.js");

const result = spawnSync(process.execPath, [cli, ...args], { env, stdio: "inherit" });
process.exit(result.status ?? 1);
