// graphql-codegen's configuration, as the Shopify app template's (`npm run
// graphql-codegen`): types for the `#graphql` documents of app/ into app/types,
// checked by `npm run typecheck`. The schema is the published one kept in the
// repo, never Shopify's proxy: codegen runs offline (docs/decisions.md D157).
import { ApiType, shopifyApiProject } from "@shopify/api-codegen-preset";
import type { IGraphQLConfig } from "graphql-config";
import { ADMIN_API_VERSION } from "./scripts/shopify-admin-schema.mjs";

const localSchema = "./scripts/shopify-admin-schema.mjs";

const project = shopifyApiProject({
  apiType: ApiType.Admin,
  apiVersion: ADMIN_API_VERSION,
  documents: ["./app/**/*.{js,ts,jsx,tsx}"],
  outputDir: "./app/types",
  // Enums as string unions: callers write "BYPASS", as Shopify sends it.
  enumsAsConst: true,
});

// The preset points at Shopify's proxy and adds an output that downloads the
// introspection: drop that output and give every other one the local schema.
const generates = Object.fromEntries(
  Object.entries(project.extensions!.codegen.generates)
    .filter(([, output]) => !(output as { plugins?: string[] }).plugins?.includes("introspection"))
    .map(([file, output]) => [file, { ...(output as object), schema: localSchema }]),
);

const config: IGraphQLConfig = {
  projects: {
    default: { ...project, schema: localSchema, extensions: { codegen: { ...project.extensions!.codegen, generates } } },
  },
};

export default config;
