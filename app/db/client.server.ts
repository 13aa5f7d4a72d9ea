// Builds a Prisma client over the pg driver adapter (no native engine). No side
// effects: scripts that open their own database (seed, bench) use this.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export interface PrismaClientOptions {
  /** PostgreSQL's statement_timeout for every connection of the pool (ms); none when unset or 0. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell the pools apart. */
  applicationName?: string;
  /** How long a query waits for a free connection of the pool (ms); forever when unset or 0. */
  connectionTimeoutMs?: number;
}

export function createPrismaClient(connectionString: string, poolSize = 10, options: PrismaClientOptions = {}) {
  return new PrismaClient({
    adapter: new PrismaPg({
      connectionString,
      max: poolSize,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      ...(options.applicationName ? { application_name: options.applicationName } : {}),
      ...(options.connectionTimeoutMs ? { connectionTimeoutMillis: options.connectionTimeoutMs } : {}),
    }),
  });
}
export type { PrismaClient };
