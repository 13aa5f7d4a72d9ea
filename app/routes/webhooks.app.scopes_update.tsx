import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { authenticateWebhook } from "~/shopify/webhooks.server";
import { logger } from "~/observability/logger.server";

const log = logger("webhooks");

export const action = async ({ request }: ActionFunctionArgs) => {
  const { payload, session, topic, shop } = await authenticateWebhook(request);
  log.info(`Received ${topic} webhook for ${shop}`);
  const current = (payload as { current?: string[] }).current;
  if (session && current) {
    await prisma.session.update({ where: { id: session.id }, data: { scope: current.toString() } });
  }
  return new Response();
};
