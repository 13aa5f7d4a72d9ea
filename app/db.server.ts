// The app's one Prisma client, for DATABASE_URL (set by `npm start`).
import { createPrismaClient, type PrismaClient } from "./db/client.server";

declare global {
  // Kept across hot reloads in development so each reload does not open a pool.
  var __prisma: PrismaClient | undefined;
}

function databaseUrl() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides one.");
  return url;
}

export const prisma: PrismaClient = (globalThis.__prisma ??= createPrismaClient(databaseUrl()));
export default prisma;
