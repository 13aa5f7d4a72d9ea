import { expect, test } from "./fixtures";

test("home loads inside the admin", async ({ admin }) => {
  const app = await admin.open("/");
  await expect(app.getByText("Demo Outfitters")).toBeVisible();
  await expect(admin.page.getByRole("navigation", { name: "App navigation" }).getByRole("button", { name: "Dropship" })).toBeVisible();
  await admin.page.getByRole("navigation", { name: "App navigation" }).getByRole("button", { name: "Feed" }).click();
  await expect(app.getByRole("heading", { name: "Feed Summary" })).toBeVisible();
});
