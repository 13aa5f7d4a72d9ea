import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

// `shopify app dev` serves the dev server through a tunnel (shopify.web.toml):
// Vite answers only hosts it knows, so it is told the tunnel's, as in the template.
const appHost = process.env.SHOPIFY_APP_URL ? new URL(process.env.SHOPIFY_APP_URL).hostname : undefined;

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000), hmr: { port: 64999 }, ...(appHost ? { allowedHosts: [appHost] } : {}) },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*", "**/*.test.ts", "**/*.test.tsx"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        // Off: route discovery keeps state in sessionStorage, which a browser blocking third-party
        // storage denies to the app inside the admin's frame, and navigation then fails (D40).
        v3_lazyRouteDiscovery: false,
        v3_singleFetch: true,
        v3_routeConfig: false,
      },
    }),
    tsconfigPaths(),
  ],
  build: { assetsInlineLimit: 0 },
  // i18next-fs-backend is server-only; the dev scan must not pre-bundle it for the browser.
  optimizeDeps: { include: ["@shopify/app-bridge-react", "@shopify/polaris"], exclude: ["i18next-fs-backend"] },
});
