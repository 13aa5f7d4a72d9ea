// Builds a Prisma client over the pg driver adapter (no native engine). No side
// effects: scripts that open their own database (seed, bench) use this. A
// client given a `poolName` has its pg pool read by /metrics (D88).
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { registerPool } from "../observability/pools.server";
import { PrismaClient } from "./generated/client";

export interface PrismaClientOptions {
  /** PostgreSQL's statement_timeout for every connection of the pool (ms); none when unset or 0. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell the pools apart. */
  applicationName?: string;
  /** How long a query waits for a free connection of the pool (ms); forever when unset or 0. */
  connectionTimeoutMs?: number;
  /** Names the pool in the db_pool_* metrics (web, jobs); unnamed pools are not reported. */
  poolName?: string;
}

export function createPrismaClient(connectionString: string, poolSize = 10, options: PrismaClientOptions = {}) {
  // The pool is made here, not by the adapter, so that its counts can be read; the adapter still ends it at $disconnect.
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    ...(options.connectionTimeoutMs ? { connectionTimeoutMillis: options.connectionTimeoutMs } : {}),
  });
  if (options.poolName) registerPool(options.poolName, pool);
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}
export type { PrismaClient };
