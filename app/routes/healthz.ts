// GET /healthz: the database up or down, unauthenticated (app/db/health.server.ts).
import { healthAnswer } from "~/db/health.server";

export const loader = () => healthAnswer();
