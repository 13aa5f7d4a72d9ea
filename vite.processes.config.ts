// The second half of `npm run build`: the two processes' entry points,
// server/main.ts (web) and jobs/main.ts (jobs worker), and scripts/rotate-secrets.ts (npm run secrets:rotate), compiled to plain
// JavaScript in build/processes, so that production runs them with `node` alone
// (docs/decisions.md D80). Packages stay imports (npm ci --omit=dev installs
// them); only our own TypeScript is bundled. The Remix app itself is built by
// vite.config.ts (remix vite:build) into build/server and build/client.
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  publicDir: false,
  logLevel: "warn",
  build: {
    ssr: true,
    target: "node20",
    outDir: "build/processes",
    emptyOutDir: true,
    minify: false,
    rollupOptions: {
      // The parse worker (app/dropship/parse/worker.ts) is an entry of its own: started by file as a worker thread.
      input: { web: "server/main.ts", jobs: "jobs/main.ts", "secrets-rotate": "scripts/rotate-secrets.ts", "parse-worker": "app/dropship/parse/worker.ts" },
      output: { format: "esm", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
});
