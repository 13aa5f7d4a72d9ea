// What a bench removes from its own environment: Shopify's app credentials (so the
// app runs in local mode against the stand-in) and the AS400 connection (no AS400).
const SHOPIFY_AND_AS400_VARIABLES = [
  "SHOPIFY_API_KEY",
  "SHOPIFY_API_SECRET",
  "SHOPIFY_APP_URL",
  "AS400_HOST",
  "AS400_PORT",
  "AS400_USER",
  "AS400_PASSWORD",
  "AS400_HOST_KEY",
  "AS400_TRANSFER_MECHANISM",
];

export function forgetShopifyAndAs400() {
  for (const key of SHOPIFY_AND_AS400_VARIABLES) delete process.env[key];
}
