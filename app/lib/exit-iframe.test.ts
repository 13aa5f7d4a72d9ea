import { describe, expect, it } from "vitest";
import { exitIframeTarget } from "./exit-iframe";

const here = "https://ops.example.com/exitiframe?redirectUri=x";

describe("/exitiframe host rule", () => {
  it("allows the app's own host, the Shopify admin and *.myshopify.com stores", () => {
    expect(exitIframeTarget("https://ops.example.com/auth?shop=a", here)).toBe("https://ops.example.com/auth?shop=a");
    expect(exitIframeTarget("/dropship", here)).toBe("https://ops.example.com/dropship");
    expect(exitIframeTarget("https://admin.shopify.com/store/demo/apps", here)).toBe("https://admin.shopify.com/store/demo/apps");
    expect(exitIframeTarget("https://demo-shop.myshopify.com/admin/oauth/authorize", here)).toContain("demo-shop.myshopify.com");
  });

  it("refuses every other host, look-alikes and script URLs", () => {
    expect(exitIframeTarget("https://evil.example.net/", here)).toBeNull();
    expect(exitIframeTarget("https://myshopify.com.evil.net/", here)).toBeNull();
    expect(exitIframeTarget("https://evilmyshopify.com/", here)).toBeNull();
    expect(exitIframeTarget("javascript:alert(1)", here)).toBeNull();
    expect(exitIframeTarget("http://demo-shop.myshopify.com/", here)).toBeNull();
    expect(exitIframeTarget(null, here)).toBeNull();
    expect(exitIframeTarget("http://[bad", here)).toBeNull();
  });
});
