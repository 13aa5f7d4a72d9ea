import { expect, test } from "@playwright/test";
import { open } from "./support";

const AREAS: Array<[string, string]> = [
  ["Dropship", "/dropship"],
  ["Feed", "/feed"],
  ["Sales", "/sales"],
  ["Advanced Order Grid", "/advancedorder"],
  ["Special Orders", "/special_order"],
  ["EOD Report", "/eod/report"],
  ["Products", "/product"],
];

test("the navigation menu has the seven areas and Home its link groups", async ({ page }) => {
  await open(page, "/");
  const nav = page.locator("nav");
  for (const [label, href] of AREAS) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
  }
  await expect(page.getByRole("heading", { name: "Home" })).toBeVisible();
  for (const group of ["Dropship", "Advanced orders", "EOD", "Feeds", "Sales", "Special orders", "Products"]) {
    await expect(page.locator("main").getByRole("heading", { name: group, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "View Logs" })).toHaveAttribute("href", "/dropship/logs/");
  await expect(page.getByRole("link", { name: "Realtime Sales/Refund Logs" })).toHaveAttribute("href", "/sales/realtime-sales-log");
  await expect(page.getByRole("link", { name: "AS400 Category to Shopify Tags Mappings" })).toHaveAttribute("href", "/product/category_tags_mapping/");
  await expect(page.getByText("Connected to Demo Outfitters")).toBeVisible(); // read from the Shopify stand-in

  await nav.getByRole("link", { name: "Dropship", exact: true }).click();
  await expect(page).toHaveURL(/\/dropship$/);
  for (const button of ["View Vendors", "New Vendor", "View Shipment Requests", "View Shipment Responses", "View Logs", "Tools", "Test Page"]) {
    await expect(page.locator("main").getByRole("link", { name: button })).toBeVisible();
  }
});

test("?locale=de shows the interface in German and keeps the language across links", async ({ page }) => {
  await open(page, "/?locale=de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { name: "Startseite" })).toBeVisible();
  await expect(page.locator("nav").getByRole("link", { name: "Sonderbestellungen" })).toBeVisible();
  await page.getByRole("link", { name: "Protokolle anzeigen" }).click();
  await expect(page).toHaveURL(/\/dropship\/logs\/\?.*locale=de/);
  await expect(page.getByRole("heading", { name: "Streckengeschäft-Protokolle" })).toBeVisible();
  await expect(page.getByText(/^Seite 1 von \d+ - Einträge gesamt: \d+$/)).toBeVisible();

  await open(page, "/?locale=fr-CA");
  await expect(page.getByRole("heading", { name: "Accueil" })).toBeVisible();
  await open(page, "/?locale=xx");
  await expect(page.getByRole("heading", { name: "Home" })).toBeVisible();
});

test("an unknown address shows the not-found page with status 404", async ({ page }) => {
  const response = await open(page, "/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("There is no page at this address")).toBeVisible();
  await open(page, "/no/such/page?locale=fr");
  await expect(page.getByText("Il n'y a pas de page à cette adresse")).toBeVisible();
});

test("/exitiframe opens allowed targets in the top window and refuses others", async ({ page, baseURL }) => {
  await open(page, `/exitiframe?redirectUri=${encodeURIComponent(`${baseURL}/dropship/logs/`)}`);
  await expect(page).toHaveURL(`${baseURL}/dropship/logs/`);
  await expect(page.getByRole("heading", { name: "Drop Shipping Logs" })).toBeVisible();

  await open(page, `/exitiframe?redirectUri=${encodeURIComponent("https://evil.example.net/steal")}`);
  await expect(page.getByText("Redirecting outside of Shopify: Apps can only use /exitiframe to reach Shopify or the app itself.")).toBeVisible();
  await expect(page).toHaveURL(/\/exitiframe/);
});

test("absolute links open in a new tab, in-app links in the same window", async ({ page }) => {
  await open(page, "/");
  const inApp = page.getByRole("link", { name: "View Vendors" });
  await expect(inApp).not.toHaveAttribute("target", "_blank");
});
