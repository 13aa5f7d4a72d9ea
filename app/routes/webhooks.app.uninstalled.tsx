import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { isEmbedded, shopify } from "~/shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  if (!isEmbedded()) return new Response(null, { status: 404 });
  // Refuses (401) anything whose HMAC does not match the app secret.
  const { shop, session, topic } = await shopify().authenticate.webhook(request);
  console.log(`Received ${topic} webhook for ${shop}`);
  if (session) await prisma.session.deleteMany({ where: { shop } });
  return new Response();
};
