import { describe, expect, it } from "vitest";
import { exitIframeTarget } from "./exit-iframe";

const here = "https://ops.example.com/exitiframe?redirectUri=x";
const allowed = { appUrl: "https://ops.example.com", shops: ["demo-shop.myshopify.com"] };
const target = (redirectUri: string | null, current = here) => exitIframeTarget(redirectUri, current, allowed);

describe("/exitiframe host rule", () => {
  it("allows the app itself, the Shopify admin and the served shop", () => {
    expect(target("https://ops.example.com/auth?shop=a")).toBe("https://ops.example.com/auth?shop=a");
    expect(target("/dropship")).toBe("https://ops.example.com/dropship");
    expect(target("https://admin.shopify.com/store/demo/apps")).toBe("https://admin.shopify.com/store/demo/apps");
    expect(target("https://demo-shop.myshopify.com/admin/oauth/authorize")).toContain("demo-shop.myshopify.com");
    expect(target("https://Demo-Shop.myshopify.com/admin")).toBe("https://demo-shop.myshopify.com/admin");
    // SHOPIFY_APP_URL even when the page is reached under another host (a proxy's).
    expect(target("https://ops.example.com/", "http://127.0.0.1:3000/exitiframe")).toBe("https://ops.example.com/");
  });

  it("refuses another shop's pages, every other host, look-alikes and script URLs", () => {
    // Any store can host a page: only the merchant's own is the app's (D206).
    expect(target("https://attacker-shop.myshopify.com/pages/login")).toBeNull();
    expect(target("https://demo-shop.myshopify.com.evil.net/")).toBeNull();
    expect(target("https://demo-shop.myshopify.com:8443/")).toBeNull();
    expect(target("https://evil.example.net/")).toBeNull();
    expect(target("https://myshopify.com.evil.net/")).toBeNull();
    expect(target("https://evilmyshopify.com/")).toBeNull();
    expect(target("https://ops.example.com.evil.net/")).toBeNull();
    expect(target("javascript:alert(1)")).toBeNull();
    expect(target("http://demo-shop.myshopify.com/")).toBeNull();
    expect(target("http://admin.shopify.com/")).toBeNull();
    expect(target(null)).toBeNull();
    expect(target("http://[bad")).toBeNull();
  });
});
