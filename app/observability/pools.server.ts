// The pg pools of this process by name (web, jobs, feeds, ...), for the
// database pool gauges of /metrics (./metrics.server.ts). Kept apart from the
// metrics so that the database client does not load prom-client. On
// globalThis: the launcher and the Remix build each load the modules that
// create pools.

/** What the gauges read of a pg.Pool. */
export interface PoolLike {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

declare global {
  var __databasePools: Map<string, PoolLike> | undefined;
}

const pools = (globalThis.__databasePools ??= new Map());

/** Names `pool` for the gauges; a later pool of the same name replaces it. */
export function registerPool(name: string, pool: PoolLike): void {
  pools.set(name, pool);
}

export const registeredPools = (): ReadonlyMap<string, PoolLike> => pools;
