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
// - shopify.toast.show and shopify.loading are reported to the admin;
// - <ui-title-bar> (title, breadcrumb, buttons) and <ui-save-bar> (shown or
//   hidden, its buttons) are shown by the admin; choosing one of their
//   buttons there clicks it here, and a breadcrumb or link dispatches
//   `shopify:navigate` on it, as App Bridge does.
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
    } else if (message.type === "bar-click") {
      const bar = message.bar === "title" ? document.querySelector("ui-title-bar") : document.getElementById(message.id);
      const target = bar ? barItems(bar)[message.index] : undefined;
      if (!target || target.disabled) return;
      if (target.tagName === "A") target.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true, composed: true }));
      else target.click();
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

  // The buttons and links of a title bar or save bar, in order.
  function barItems(bar) {
    return [...bar.querySelectorAll(":scope > a, :scope > button, :scope > section > a, :scope > section > button")];
  }
  const describe = (bar) =>
    barItems(bar).map((item) => ({
      label: item.textContent.trim(),
      variant: item.getAttribute("variant"),
      tone: item.getAttribute("tone"),
      disabled: item.disabled === true || item.hasAttribute("disabled"),
      href: item.tagName === "A" ? item.getAttribute("href") : null,
    }));
  const observed = (report) =>
    class extends HTMLElement {
      connectedCallback() {
        this.style.display = "none";
        this.observer = new MutationObserver(() => report(this));
        this.observer.observe(this, { subtree: true, childList: true, attributes: true, characterData: true });
        report(this);
      }
      disconnectedCallback() {
        this.observer?.disconnect();
        this.gone?.();
      }
    };
  customElements.define(
    "ui-title-bar",
    class extends observed((bar) => post({ type: "title-bar", title: bar.getAttribute("title") ?? document.title, items: describe(bar) })) {
      gone() {
        post({ type: "title-bar", title: null, items: [] });
      }
    },
  );
  customElements.define(
    "ui-save-bar",
    class extends observed((bar) => bar.shown && post({ type: "save-bar", id: bar.id, open: true, items: describe(bar) })) {
      show() {
        this.shown = true;
        post({ type: "save-bar", id: this.id, open: true, items: describe(this) });
        this.dispatchEvent(new CustomEvent("show"));
      }
      hide() {
        if (!this.shown) return;
        this.shown = false;
        post({ type: "save-bar", id: this.id, open: false, items: [] });
        this.dispatchEvent(new CustomEvent("hide"));
      }
      gone() {
        this.hide();
      }
    },
  );

  // A page that goes takes its bars with it, as the admin clears them when the app navigates.
  addEventListener("pagehide", () => {
    post({ type: "title-bar", title: null, items: [] });
    for (const bar of document.querySelectorAll("ui-save-bar")) bar.hide?.();
  });

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
