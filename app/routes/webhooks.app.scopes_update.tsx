import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { isEmbedded, shopify } from "~/shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  if (!isEmbedded()) return new Response(null, { status: 404 });
  const { payload, session, topic, shop } = await shopify().authenticate.webhook(request);
  console.log(`Received ${topic} webhook for ${shop}`);
  const current = (payload as { current?: string[] }).current;
  if (session && current) {
    await prisma.session.update({ where: { id: session.id }, data: { scope: current.toString() } });
  }
  return new Response();
};
