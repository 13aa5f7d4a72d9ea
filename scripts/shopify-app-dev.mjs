#!/usr/bin/env node
// `shopify app dev` runs this (shopify.web.toml). The CLI gives the tunnel's
// URL in HOST, which here is the interface to listen on: it becomes
// SHOPIFY_APP_URL instead, as in the Shopify Remix template's vite.config.ts.
// The key that encrypts vendor passwords is kept in DATA_DIR/secret.key, as
// local mode keeps it. Then `npm run dev`: embedded mode, Vite, hot reload,
// the embedded PostgreSQL unless DATABASE_URL is set.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const env = { ...process.env };
if (env.HOST && /^https?:\/\//.test(env.HOST)) {
  if (!env.SHOPIFY_APP_URL || env.SHOPIFY_APP_URL === env.HOST) env.SHOPIFY_APP_URL = env.HOST;
  delete env.HOST;
}
if (!env.SHOPIFY_SHOPS) {
  console.error("SHOPIFY_SHOPS is not set: give the development store, e.g. SHOPIFY_SHOPS=my-dev-store.myshopify.com shopify app dev");
  process.exit(1);
}
if (!env.APP_SECRET_KEY) {
  const file = path.resolve(env.DATA_DIR || ".data", "secret.key");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  }
  env.APP_SECRET_KEY = readFileSync(file, "utf8").trim();
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const child = spawn(npm, ["run", "dev"], { env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
