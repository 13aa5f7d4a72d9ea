import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { createInstance } from "i18next";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { isEmbedded, onShopAuthorised, shopify } from "./shopify.server";
import { syncStoresAtInstall } from "./sales/stores.server";
import { shopifyAdminOver } from "./shopify/admin-client.server";
import i18nConfig from "./i18n/config";
import { i18nServer } from "./i18n/i18n.server";
import { localeFiles } from "./i18n/locale-files.server";
import { logger } from "~/observability/logger.server";

// The shop's locations become its stores at once (location_sync, D48); not awaited, so the install never waits on it.
onShopAuthorised((shop, admin) => syncStoresAtInstall(shopifyAdminOver(shop, admin), shop));

const log = logger("render");

export const streamTimeout = 5000;

/**
 * An error thrown by a loader or action, or while rendering: to the log, with
 * the request's id and shop (D86), where Remix's default would print it to
 * the console. Not the path: the request's own line names its route.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return; // the caller went away: nothing of ours failed
  // A thrown 4xx/5xx Response is an answer, not a failure; only an error inside one is logged as such.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : error;
  if (inner) log.error({ err: inner }, `${request.method} failed in a loader, action or render`);
};

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  // Embedded mode: the template's frame-ancestors and related headers.
  if (isEmbedded()) shopify().addDocumentResponseHeaders(request, responseHeaders);

  const i18n = createInstance();
  const lng = await i18nServer.getLocale(request);
  const ns = i18nServer.getRouteNamespaces(remixContext);
  // The texts parsed once per process (./i18n/locale-files.server.ts), not read from disk per page.
  await i18n.use(initReactI18next).init({ ...i18nConfig, lng, ns, resources: localeFiles().resources });

  const callbackName = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} />
      </I18nextProvider>,
      {
        [callbackName]: () => {
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error) {
          reject(error);
        },
        onError(error) {
          responseStatusCode = 500;
          log.error({ err: error }, "rendering a page failed");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
