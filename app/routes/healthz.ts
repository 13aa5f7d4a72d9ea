// GET /healthz: {"ok":true,"database":"up"} or 503 with what is wrong. No authentication:
// load balancers and the start script call it.
import prisma from "~/db.server";

export async function loader() {
  try {
    await prisma.$queryRaw`SELECT 1`;
    return Response.json({ ok: true, database: "up" }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return Response.json(
      { ok: false, database: "down", error: (error as Error).message.split("\n")[0] },
      { status: 503, headers: { "cache-control": "no-store" } },
    );
  }
}
