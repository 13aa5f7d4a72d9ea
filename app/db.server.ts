// The app's Prisma clients, for DATABASE_URL (set by `npm start`). Two pools
// (D67): web requests get connections with a statement_timeout
// (WEB_STATEMENT_TIMEOUT_MS), so a request never hangs on a slow query or a
// lock; jobs (feed runs, the EOD work) get their own pool without one, so a long
// report is never cut. `prisma` picks the client of the work it runs in:
// server/main.ts runs each request in `runAsWebRequest`, the feed runner runs
// each feed in `runAsJob`; anything outside both (launchers, scripts, tests) is
// a job. A job started by a request (Run Feed) is a job.
//
// The clients and the context live on globalThis: the launcher loads its own
// copy of this module, the Remix build another, and both must see one context.
import { AsyncLocalStorage } from "node:async_hooks";
import { createPrismaClient, type PrismaClient } from "./db/client.server";
import { databaseSettings } from "./env.server";

export type DatabaseRole = "web" | "jobs";

declare global {
  // Kept across hot reloads in development so each reload does not open a pool.
  // __prisma is the jobs' client (tests that switch databases reset it).
  var __prisma: PrismaClient | undefined;
  var __prismaWeb: PrismaClient | undefined;
  var __databaseRole: AsyncLocalStorage<DatabaseRole> | undefined;
}

const roles = (globalThis.__databaseRole ??= new AsyncLocalStorage<DatabaseRole>());

function databaseUrl() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides one.");
  return url;
}

/** The client of a role, created at its first use. */
export function prismaFor(role: DatabaseRole): PrismaClient {
  if (role === "web") {
    return (globalThis.__prismaWeb ??= (() => {
      const settings = databaseSettings();
      return createPrismaClient(databaseUrl(), settings.DATABASE_POOL_SIZE, {
        statementTimeoutMs: settings.WEB_STATEMENT_TIMEOUT_MS,
        // Waiting for a free connection is bounded too: a request answers, it never hangs.
        connectionTimeoutMs: settings.WEB_STATEMENT_TIMEOUT_MS,
        applicationName: "web",
        poolName: "web",
      });
    })());
  }
  return (globalThis.__prisma ??= createPrismaClient(databaseUrl(), databaseSettings().JOBS_DATABASE_POOL_SIZE, { applicationName: "jobs", poolName: "jobs" }));
}

/** The role of the work running now: "web" inside a request, else "jobs". */
export const currentDatabaseRole = (): DatabaseRole => roles.getStore() ?? "jobs";

/** Runs `work` (and everything it starts) as a web request: the web pool, with its statement timeout. */
export function runAsWebRequest<T>(work: () => T): T {
  return roles.run("web", work);
}

/** Runs `work` (and everything it starts) as a job: the jobs' pool, no statement timeout. */
export function runAsJob<T>(work: () => T): T {
  return roles.run("jobs", work);
}

/** Disconnects both clients (shutdown). */
export async function disconnectPrisma(): Promise<void> {
  const clients = [globalThis.__prismaWeb, globalThis.__prisma].filter((client): client is PrismaClient => Boolean(client));
  await Promise.all(clients.map((client) => client.$disconnect()));
}

// Every property read goes to the client of the current role, bound to it.
export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const client = prismaFor(currentDatabaseRole());
    const value = Reflect.get(client, property, client) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(client) : value;
  },
  has: (_target, property) => Reflect.has(prismaFor(currentDatabaseRole()), property),
});
export default prisma;
