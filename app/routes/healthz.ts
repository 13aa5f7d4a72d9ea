// GET /healthz: the database up or down, unauthenticated (app/observability/health.server.ts).
import { healthAnswer } from "~/observability/health.server";

export const loader = () => healthAnswer();
