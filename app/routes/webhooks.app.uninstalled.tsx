import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { authenticateWebhook } from "~/shopify/webhooks.server";
import { logger } from "~/observability/logger.server";

const log = logger("webhooks");

export const action = async ({ request }: ActionFunctionArgs) => {
  // 404 in local mode, 403 for a shop this app does not serve, 401 when the HMAC does not match.
  const { shop, session, topic } = await authenticateWebhook(request);
  log.info(`Received ${topic} webhook for ${shop}`);
  if (session) await prisma.session.deleteMany({ where: { shop } });
  return new Response();
};
