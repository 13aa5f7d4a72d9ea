// Shopify's published Admin schema of the pinned version, built from the
// introspection kept in the repo (app/shopify/schema/, gzip'd), for
// graphql-codegen (.graphqlrc.ts): codegen runs offline (docs/decisions.md D157).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { buildClientSchema } from "graphql";

/** The Admin API version the app pins (app/shopify.server.ts, shopify.app.toml). */
export const ADMIN_API_VERSION = "2026-10";

const file = new URL(`../app/shopify/schema/admin_${ADMIN_API_VERSION}.json.gz`, import.meta.url);
const introspection = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8"));

export const schema = buildClientSchema(introspection.data);
