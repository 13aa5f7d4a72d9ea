// Stand-in for https://cdn.shopify.com/shopifycloud/app-bridge.js, served by
// the embedded-mode browser tests (Playwright route) because the real script
// cannot be downloaded here. It does what the app relies on App Bridge for,
// the way App Bridge does it, talking to the admin stand-in (the parent page,
// ./admin-stand-in.ts) by postMessage:
// - shopify.idToken(): a session token the admin signs (HS256, the app secret);
// - fetch to the app's own origin carries `Authorization: Bearer <token>`, and
//   is retried once with a new token when the app answers 401 with
//   X-Shopify-Retry-Invalid-Session-Request;
// - the bounce page (/auth/session-token?shopify-reload=…) reloads its target
//   with an id_token;
// - <ui-nav-menu> links are shown by the admin; choosing one dispatches
//   `shopify:navigate` on the link, as App Bridge does;
// - window.open(url, "_top") asks the admin to navigate the top window;
// - shopify.toast.show and shopify.loading are reported to the admin.
(() => {
  if (window.shopify) return;
  const ADMIN_ORIGIN = "__ADMIN_ORIGIN__";
  const script = document.currentScript;
  const params = new URLSearchParams(location.search);
  // The admin puts shop and host on every URL it frames (no storage: a framed app may have none).
  const shop = params.get("shop");
  const post = (message) => window.parent.postMessage({ source: "app-bridge", ...message }, ADMIN_ORIGIN);

  let cached = null;
  const pending = new Map();
  let nextId = 1;
  window.addEventListener("message", (event) => {
    if (event.origin !== ADMIN_ORIGIN || event.data?.source !== "admin") return;
    const message = event.data;
    if (message.type === "id-token") {
      pending.get(message.id)?.(message.token);
      pending.delete(message.id);
    } else if (message.type === "navigate") {
      const link = [...document.querySelectorAll("ui-nav-menu a")].find((a) => a.getAttribute("href") === message.href);
      link?.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true, composed: true }));
    }
  });

  function idToken() {
    if (cached && cached.expires > Date.now() + 10_000) return Promise.resolve(cached.token);
    return new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, (token) => {
        const { exp } = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
        cached = { token, expires: exp * 1000 };
        resolve(token);
      });
      post({ type: "id-token", id, shop });
    });
  }

  const originalFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).origin !== location.origin || request.headers.has("Authorization")) return originalFetch(request);
    const send = async (attempt) => {
      const headers = new Headers(attempt.headers);
      headers.set("Authorization", `Bearer ${await idToken()}`);
      return originalFetch(new Request(attempt, { headers }));
    };
    const response = await send(request.clone());
    if (response.status === 401 && response.headers.get("X-Shopify-Retry-Invalid-Session-Request") === "1") {
      cached = null;
      return send(request);
    }
    return response;
  };

  const originalOpen = window.open.bind(window);
  window.open = (url, target, features) => {
    if (target === "_top" || target === "_parent") {
      post({ type: "redirect", url: new URL(String(url), location.href).href });
      return null;
    }
    return originalOpen(url, target, features);
  };

  customElements.define(
    "ui-nav-menu",
    class extends HTMLElement {
      connectedCallback() {
        this.style.display = "none";
        this.observer = new MutationObserver(() => this.report());
        this.observer.observe(this, { subtree: true, childList: true, attributes: true, characterData: true });
        this.report();
      }
      disconnectedCallback() {
        this.observer?.disconnect();
      }
      report() {
        const links = [...this.querySelectorAll("a")]
          .filter((a) => a.getAttribute("rel") !== "home")
          .map((a) => ({ href: a.getAttribute("href"), label: a.textContent.trim() }));
        post({ type: "nav-menu", links });
      }
    },
  );

  let toastId = 0;
  window.shopify = {
    config: { apiKey: script?.dataset.apiKey ?? null, shop, host: params.get("host"), locale: params.get("locale") ?? "en" },
    environment: { embedded: true, mobile: false, pos: false },
    origin: ADMIN_ORIGIN,
    ready: Promise.resolve(),
    idToken,
    toast: {
      show(message, options) {
        post({ type: "toast", message: String(message), isError: Boolean(options?.isError) });
        return `toast-${++toastId}`;
      },
      hide() {},
    },
    loading(isLoading) {
      post({ type: "loading", isLoading: isLoading !== false });
    },
  };

  const reload = params.get("shopify-reload");
  if (location.pathname === "/auth/session-token" && reload) {
    void idToken().then((token) => {
      const target = new URL(reload, location.href);
      if (target.origin !== location.origin) return;
      target.searchParams.set("id_token", token);
      location.replace(target.href);
    });
  }
})();
