// Every request body is bounded before it is read (issue 15, D57): the length
// a request declares is checked against its route's limit, and a larger body
// is refused with 413 at once, without reading it, so no one can make the app
// hold a body in memory. A webhook is refused before its HMAC is computed. A
// body without a declared length (chunked) is refused with 411: browsers,
// Shopify and curl all declare it.
import type { NextFunction, Request, Response } from "express";

const MB = 1024 * 1024;
/** Shopify's webhook payloads are well under this; an order with hundreds of lines is about 200 KB. */
export const WEBHOOK_BODY_LIMIT = 1 * MB;
/** Forms and JSON of the screens (a vendor has 60 fields; a special order a few items). */
export const REQUEST_BODY_LIMIT = 4 * MB;

export function limitFor(path: string): number {
  return path.startsWith("/webhooks/") ? WEBHOOK_BODY_LIMIT : REQUEST_BODY_LIMIT;
}

export function bodyLimit(req: Request, res: Response, next: NextFunction) {
  const declared = req.headers["content-length"];
  const limit = limitFor(req.path);
  if (declared !== undefined) {
    if (/^\d+$/.test(declared) && Number(declared) <= limit) return next();
    return refuse(res, 413, `The request body is larger than this route takes (${limit / MB} MB).`);
  }
  if (req.headers["transfer-encoding"]) return refuse(res, 411, "The request body must declare its length (Content-Length).");
  return next();
}

function refuse(res: Response, status: number, message: string) {
  // The unread body is not drained: the connection closes after the answer.
  res.set("Connection", "close");
  res.status(status).json({ error: true, message });
}
