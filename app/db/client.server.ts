// Builds a Prisma client over the pg driver adapter (no native engine). No side
// effects: scripts that open their own database (seed, bench) use this.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export function createPrismaClient(connectionString: string, poolSize = 10) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolSize }) });
}
export type { PrismaClient };
