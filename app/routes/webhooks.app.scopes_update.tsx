// app/scopes_update (the template's): the session's scopes (app/shopify/webhooks.server.ts).
import { updateSessionScopes, webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(updateSessionScopes);
