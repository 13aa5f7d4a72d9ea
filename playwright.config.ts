// End-to-end tests in Debian's Chromium (never a downloaded browser) against
// the built app, started by tests/e2e/global-setup.ts: project "local" in
// local mode, project "embedded" inside the admin stand-in (tests/e2e/embedded/).
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  projects: [
    { name: "local", testIgnore: /embedded\// },
    {
      name: "embedded",
      testMatch: /embedded\/.*\.spec\.ts$/,
      // The admin (a public origin) frames the app on loopback here; a deployed app is public too,
      // so Chromium's local-network-access prompt only exists in this test set-up.
      use: { permissions: ["local-network-access"] },
    },
  ],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // authenticate.admin answers bots (HeadlessChrome included) with 410.
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
    trace: "off",
  },
});
