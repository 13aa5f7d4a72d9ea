// The one Prisma client, over the pg driver adapter (no native engine).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./db/generated/client";

declare global {
  // Kept across hot reloads in development so each reload does not open a pool.
  var __prisma: PrismaClient | undefined;
}

export function createPrismaClient(connectionString: string) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 10 }) });
}

function databaseUrl() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides one.");
  return url;
}

export const prisma: PrismaClient = (globalThis.__prisma ??= createPrismaClient(databaseUrl()));
export default prisma;
