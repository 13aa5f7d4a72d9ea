// `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql,
// the SQL that takes the schema of the last migration (kept as
// prisma/migrations/schema.snapshot.prisma) to prisma/schema.prisma.
// Prisma's wasm schema engine wants a database even for a diff, so this starts
// the embedded one when DATABASE_URL is unset (docs/decisions.md, D2).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openLocalDatabase } from "../app/db/embedded-postgres.server";

const MIGRATIONS = "prisma/migrations";
const SNAPSHOT = path.join(MIGRATIONS, "schema.snapshot.prisma");
const name = (process.argv[2] ?? "change").replace(/\W+/g, "_");

const embedded = process.env.DATABASE_URL
  ? null
  : await openLocalDatabase({ dataDir: path.resolve(process.env.DATA_DIR ?? ".data"), port: Number(process.env.PG_PORT ?? 54329) });
try {
  const from = existsSync(SNAPSHOT) ? ["--from-schema-datamodel", SNAPSHOT] : ["--from-empty"];
  const result = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? embedded!.url },
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    process.exitCode = 1;
  } else if (/^-- This is an empty migration/m.test(result.stdout)) {
    console.log("The schema has not changed since the last migration.");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const folder = path.join(MIGRATIONS, `${stamp}_${name}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "migration.sql"), result.stdout);
    if (!existsSync(path.join(MIGRATIONS, "migration_lock.toml"))) {
      writeFileSync(path.join(MIGRATIONS, "migration_lock.toml"), 'provider = "postgresql"\n');
    }
    copyFileSync("prisma/schema.prisma", SNAPSHOT);
    console.log(`Wrote ${folder}/migration.sql`);
  }
} finally {
  await embedded?.stop();
}
