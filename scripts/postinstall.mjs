#!/usr/bin/env node
// npm's postinstall: the Prisma clients (docs/decisions.md D81), and in a
// checkout ssh2's crypto addon built again for the Node the scripts run on (D156).
// - In a checkout (development, CI, the image's build stage) both clients are
//   generated from prisma/schema.prisma, offline (scripts/prisma.mjs).
// - What ships (npm ci --omit=dev beside build/, no schema) generates nothing:
//   the app's own client is compiled into build/, and the classic one, which
//   the Shopify session storage loads through @prisma/client, is copied from
//   build/prisma-client, where `npm run build` packed it. So the build must be
//   in place before that install.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * npm runs install scripts on the `node` dev dependency (Node 22), but
 * Debian's npm sets `nodedir=/usr`: node-gyp then compiles ssh2's optional
 * crypto addon against the system Node 20's headers, and Node 22 refuses to
 * load it (ssh2 silently falls back to slower JavaScript ciphers). The `node`
 * package ships its own headers: build the addon again against them.
 */
function rebuildSsh2CryptoForThisNode() {
  const addonDir = path.join(root, "node_modules/ssh2/lib/protocol/crypto");
  const addon = path.join(addonDir, "build/Release/sshcrypto.node");
  if (!existsSync(addon)) return; // not built at all: ssh2 runs without it
  try {
    createRequire(import.meta.url)(addon);
    return;
  } catch {
    // built for another Node: rebuilt below
  }
  const nodeHome = path.resolve(path.dirname(process.execPath), "..");
  const candidates = [
    nodeHome,
    ...(existsSync(path.join(nodeHome, "node_modules"))
      ? readdirSync(path.join(nodeHome, "node_modules")).map((name) => path.join(nodeHome, "node_modules", name))
      : []),
  ];
  const headers = candidates.find((dir) => {
    const version = path.join(dir, "include/node/node_version.h");
    return existsSync(version) && new RegExp(`#define NODE_MODULE_VERSION ${process.versions.modules}\\b`).test(readFileSync(version, "utf8"));
  });
  if (!headers) {
    console.warn(`postinstall: no headers of Node ${process.version} found; ssh2 runs without its crypto addon`);
    return;
  }
  // npm hands its nodedir to node-gyp through the environment, which wins over an argument.
  const env = { ...process.env, npm_config_nodedir: headers };
  const result = spawnSync("node-gyp", ["rebuild", `--target=${process.version}`], { cwd: addonDir, env, stdio: "inherit", shell: true });
  console.log(`postinstall: ssh2's crypto addon ${result.status === 0 ? "rebuilt" : "could not be rebuilt"} for Node ${process.version}`);
}

if (existsSync(path.join(root, "prisma/schema.prisma"))) {
  rebuildSsh2CryptoForThisNode();
  const result = spawnSync(process.execPath, [path.join(root, "scripts/prisma.mjs"), "generate"], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const packed = path.join(root, "build/prisma-client");
if (!existsSync(path.join(packed, "index.js"))) {
  console.error(
    "postinstall: no prisma/schema.prisma to generate the Prisma client from, and no build/prisma-client to use instead. " +
      "Run `npm ci && npm run build` first, then `npm ci --omit=dev` with build/ in place (the Dockerfile does).",
  );
  process.exit(1);
}
// Where @prisma/client looks for it.
const target = path.join(root, "node_modules/.prisma/client");
rmSync(target, { recursive: true, force: true });
cpSync(packed, target, { recursive: true });
console.log("postinstall: the Prisma client comes from build/prisma-client");
