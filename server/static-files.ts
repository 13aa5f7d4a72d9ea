// Files of the build (build/client) as the browser asks for them: the brotli
// or gzip copy made at build time (scripts/precompress.mjs) when the browser
// takes it, else the file itself through express.static. Only names found in
// the folder at start are served compressed, so a path never leaves it; the
// compression middleware leaves an answer that already has its encoding alone.
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Request, RequestHandler } from "express";
import express from "express";

function listFiles(root: string, dir = ""): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return []; // no such folder in this build
  }
  return entries.flatMap((entry) => (entry.isDirectory() ? listFiles(root, path.posix.join(dir, entry.name)) : [path.posix.join(dir, entry.name)]));
}

/** Serves `root`; `cacheControl` says how long the browser may keep each answer. */
export function staticFiles(root: string, cacheControl: (req: Request) => string): RequestHandler {
  const names = new Set(listFiles(root));
  const plain = express.static(root, { index: false, cacheControl: false, setHeaders: (res) => res.setHeader("Cache-Control", cacheControl(res.req)) });
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let name: string;
    try {
      name = decodeURIComponent(req.path).replace(/^\/+/, "");
    } catch {
      return next();
    }
    const variants = names.has(`${name}.br`) || names.has(`${name}.gz`);
    if (!variants) return plain(req, res, next);
    res.vary("Accept-Encoding");
    const offered = (["br", "gzip"] as const).filter((encoding) => names.has(`${name}.${encoding === "br" ? "br" : "gz"}`));
    const encoding = req.acceptsEncodings(...offered);
    if (!encoding) return plain(req, res, next);
    res.type(path.extname(name));
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Cache-Control", cacheControl(req));
    res.sendFile(`${name}.${encoding === "br" ? "br" : "gz"}`, { root, cacheControl: false, dotfiles: "deny" }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  };
}
