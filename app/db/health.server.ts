// GET /healthz: {"ok":true,"database":"up"} or 503 {"ok":false,"database":"down"}. No
// authentication (load balancers and the start script call it), so it says up or down
// and nothing more: the reason goes to the log.
import prisma from "~/db.server";
import { logger } from "~/observability/logger.server";

const log = logger("healthz");

export async function healthAnswer(): Promise<Response> {
  try {
    await prisma.$queryRaw`SELECT 1`;
    return Response.json({ ok: true, database: "up" }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    log.error(`database down: ${(error as Error).message.replace(/\s+/g, " ").trim().slice(0, 500)}`);
    return Response.json({ ok: false, database: "down" }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
