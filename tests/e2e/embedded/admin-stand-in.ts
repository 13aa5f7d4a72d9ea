// The Shopify admin as the embedded-mode browser tests need it: a page served
// on loopback (the browser reaches it at https://admin.shopify.com through a
// Playwright route, ./fixtures.ts: the app's CSP lets only the admin frame
// it), on another origin than the app's, that frames the app the way the admin does
// (app URL + path, with embedded=1, shop, host and a fresh id_token), signs the
// session tokens App Bridge asks for, shows the app's navigation menu, toasts
// and loading state, and navigates the top window when the app asks.
// App Bridge itself is ./app-bridge-stand-in.js, served at its real URL.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { EMBEDDED, hostParam, sessionToken } from "../../support/embedded-app";

/** Where the admin serves an app: admin.shopify.com/store/{store}/apps/{handle}/{path}. */
export const APP_PATH_PREFIX = `/store/${EMBEDDED.shop.replace(".myshopify.com", "")}/apps/ops-backoffice`;

export function frameSource(appUrl: string, appPath: string, token = sessionToken()): string {
  const url = new URL(appPath, appUrl);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", EMBEDDED.shop);
  url.searchParams.set("host", hostParam());
  url.searchParams.set("id_token", token);
  return url.toString();
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function adminPage(appUrl: string, frameUrl: string): string {
  const appOrigin = new URL(appUrl).origin;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shopify admin (stand-in)</title>
<style>body{margin:0;display:grid;grid-template-columns:220px 1fr;height:100vh;overflow:hidden;font-family:sans-serif}
nav{background:#ebebeb;padding:8px}nav button{display:block;width:100%;text-align:left;margin:2px 0}
main{display:flex;flex-direction:column;height:100vh;min-width:0}
iframe{border:0;width:100%;flex:1}#toasts{position:fixed;bottom:8px;left:230px}</style></head>
<body data-loading="false">
<nav aria-label="App navigation"></nav>
<!-- As in the admin: the bars stay put and the app's frame fills the rest and scrolls itself. -->
<main>
<header id="title-bar" aria-label="Title bar"><h1></h1><span class="items"></span></header>
<div id="save-bar" role="region" aria-label="Save bar" hidden><span>Unsaved changes</span><span class="items"></span></div>
<iframe id="app-iframe" name="app-iframe" title="Operations back-office" src="${escapeHtml(frameUrl)}"></iframe>
</main>
<div id="toasts"></div>
<script>
const APP_ORIGIN = ${JSON.stringify(appOrigin)};
const frame = document.getElementById("app-iframe");
const nav = document.querySelector("nav");
window.addEventListener("message", async (event) => {
  if (event.origin !== APP_ORIGIN || !event.data || event.data.source !== "app-bridge") return;
  const message = event.data;
  if (message.type === "id-token") {
    const { token } = await (await fetch("/id-token")).json();
    event.source.postMessage({ source: "admin", type: "id-token", id: message.id, token }, APP_ORIGIN);
  } else if (message.type === "nav-menu") {
    nav.replaceChildren(...message.links.map((link) => {
      const button = document.createElement("button");
      button.textContent = link.label;
      button.dataset.href = link.href;
      button.addEventListener("click", () => frame.contentWindow.postMessage({ source: "admin", type: "navigate", href: link.href }, APP_ORIGIN));
      return button;
    }));
  } else if (message.type === "redirect") {
    location.assign(message.url);
  } else if (message.type === "toast") {
    const toast = document.createElement("div");
    toast.setAttribute("role", "status");
    toast.className = message.isError ? "toast error" : "toast";
    toast.textContent = message.message;
    document.getElementById("toasts").append(toast);
  } else if (message.type === "title-bar" || message.type === "save-bar") {
    // App Bridge's bars: the title and buttons the app declares, shown here; a click goes back to the app.
    const bar = document.getElementById(message.type);
    if (message.type === "title-bar") bar.querySelector("h1").textContent = message.title ?? "";
    else bar.hidden = !message.open;
    // Updated in place, as the admin's own UI does: a button replaced while it
    // is being pressed (the app re-renders its bar as staff type) loses the click.
    const items = bar.querySelector(".items");
    bar.dataset.barId = message.id ?? "";
    message.items.forEach((item, index) => {
      let button = items.children[index];
      if (!button) {
        button = document.createElement("button");
        button.addEventListener("click", () => {
          const click = { source: "admin", type: "bar-click", bar: bar.id === "title-bar" ? "title" : "save", id: bar.dataset.barId, index };
          frame.contentWindow.postMessage(click, APP_ORIGIN);
        });
        items.append(button);
      }
      button.textContent = item.label;
      if (item.variant) button.dataset.variant = item.variant; else delete button.dataset.variant;
      if (item.tone) button.dataset.tone = item.tone; else delete button.dataset.tone;
      button.disabled = item.disabled;
    });
    while (items.children.length > message.items.length) items.lastElementChild.remove();
  } else if (message.type === "loading") {
    document.body.dataset.loading = String(message.isLoading);
  }
});
</script>
</body></html>`;
}

export async function startAdminStandIn(appUrl: string) {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://admin.invalid");
    if (url.pathname === "/id-token") {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      return response.end(JSON.stringify({ token: sessionToken() }));
    }
    if (url.pathname === APP_PATH_PREFIX || url.pathname.startsWith(`${APP_PATH_PREFIX}/`)) {
      const appPath = (url.pathname.slice(APP_PATH_PREFIX.length) || "/") + url.search;
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      return response.end(adminPage(appUrl, frameSource(appUrl, appPath)));
    }
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
