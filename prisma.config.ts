// Prisma CLI configuration: the JS engine with the pg driver adapter, so no
// native engine is ever downloaded (docs/decisions.md, D2).
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    // Commands that need no database (generate, migrate diff) still build the
    // adapter; it only connects when a query runs.
    const connectionString = process.env.DATABASE_URL ?? "postgresql://127.0.0.1:1/unset";
    return new PrismaPg({ connectionString });
  },
});
