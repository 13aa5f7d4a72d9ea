// The admin's conventions inside the admin (issue 18 item 3), in English and
// German: each screen's title and actions in the admin's title bar (not twice
// in the frame), and a send that cannot be taken back, pressed in the title
// bar, asks first in the app's frame (Cancel sends nothing).
import { dbQuery, expect, test } from "./fixtures";

const SCREENS: Array<{ path: string; en: string; de: string; actions?: { en: string[]; de: string[] } }> = [
  {
    path: "/eod/report",
    en: "EOD Report",
    de: "Tagesabschlussbericht",
    actions: {
      en: ["Run Report", "Past Batches", "Retry Previous", "Export CSV", "Export Today's CSV", "Export to AS400"],
      de: ["Bericht ausführen", "Frühere Stapel", "Vorherigen wiederholen", "CSV exportieren", "CSV von heute exportieren", "An AS400 exportieren"],
    },
  },
  { path: "/feed", en: "Feed Summary", de: "Feed-Übersicht" },
  { path: "/dropship/tools/", en: "Drop Ship Tools", de: "Streckengeschäft-Werkzeuge" },
  { path: "/sales/unassigned-orders", en: "Unassigned Orders", de: "Nicht zugewiesene Bestellungen" },
  { path: "/special_order/current", en: "Current Special Orders", de: "Aktuelle Sonderbestellungen" },
  { path: "/product", en: "Products", de: "Produkte" },
];

for (const locale of ["en", "de"] as const) {
  test(`each screen's title and actions are in the admin's title bar (${locale})`, async ({ admin }) => {
    for (const screen of SCREENS) {
      await test.step(screen.path, async () => {
        const app = await admin.open(`${screen.path}${screen.path.includes("?") ? "&" : "?"}locale=${locale}`);
        await expect(admin.titleBar.getByRole("heading")).toHaveText(screen[locale]);
        await expect(app.getByRole("heading", { name: screen[locale], exact: true })).toHaveCount(0); // not twice
        if (screen.actions) await expect(admin.titleBar.getByRole("button")).toHaveText(screen.actions[locale]);
      });
    }
  });
}

test("Export to AS400 from the title bar asks first, in German; Cancel sends nothing", async ({ admin }) => {
  const exports: string[] = [];
  admin.page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/eod_report_export") exports.push(request.url());
  });
  const [{ batches }] = await dbQuery<{ batches: string }>("SELECT count(*) AS batches FROM eod_batch");
  const app = await admin.open("/eod/report?locale=de");
  await admin.titleBar.getByRole("button", { name: "An AS400 exportieren" }).click();
  const dialog = app.getByRole("dialog", { name: "An AS400 exportieren?" });
  await expect(dialog).toContainText(
    "Alle ausstehenden Zeilen des Berichts gehen jetzt als eine Stapeldatei an die AS400. Eine gesendete Datei kann nicht zurückgeholt werden.",
  );
  await expect(dialog.getByRole("button", { name: "An AS400 exportieren" })).toBeVisible();
  await dialog.getByRole("button", { name: "Abbrechen" }).click();
  await expect(dialog).toHaveCount(0);
  expect(exports).toEqual([]);
  expect((await dbQuery<{ batches: string }>("SELECT count(*) AS batches FROM eod_batch"))[0].batches).toBe(batches);
});
