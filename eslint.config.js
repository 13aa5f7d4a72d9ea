// ESLint 9 flat config (D133). The base is the Shopify Remix app template's:
// @remix-run/eslint-config there is eslint:recommended + typescript-eslint + react +
// react-hooks + jsx-a11y, with eslint-config-prettier last; here the same plugins are
// named one by one, since that package never moved past ESLint 8.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    // What .gitignore lists, the generated Prisma client and the generated Admin API types (D157).
    ignores: ["build/", ".data/", "app/db/generated/", "app/types/", "test-results/", "playwright-report/"],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      // Server code, scripts and tests run on Node; components also run in the browser.
      globals: { ...globals.node, ...globals.browser },
    },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{jsx,tsx}"],
    ...react.configs.flat.recommended,
    settings: {
      react: { version: "detect" },
      formComponents: ["Form"],
      linkComponents: [
        { name: "Link", linkAttribute: "to" },
        { name: "NavLink", linkAttribute: "to" },
      ],
    },
  },
  { files: ["**/*.{jsx,tsx}"], ...react.configs.flat["jsx-runtime"] },
  { files: ["**/*.{jsx,tsx}"], ...jsxA11y.flatConfigs.recommended },
  {
    // The two rules of the template's react-hooks/recommended. Version 7's recommended set adds the
    // React Compiler's rules, for React 19 with the compiler; this app has neither (D133).
    // Only app/ has hooks: Playwright's fixtures call a `use` that is not React's.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["**/*.{jsx,tsx}"],
    rules: {
      // TypeScript checks props; the template turns this off too.
      "react/prop-types": "off",
      // App Bridge reads these on the buttons and links inside <TitleBar> and <SaveBar>.
      "react/no-unknown-property": ["error", { ignore: ["variant", "tone"] }],
    },
  },
  {
    rules: {
      // `_`-prefixed names are the way to say "deliberately unused".
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  prettier,
  {
    // After eslint-config-prettier, which turns it off: Prettier breaks code at 160 columns but not
    // strings, comments or template literals, so this keeps those wrapped by hand (D134).
    rules: { "max-len": ["error", { code: 160, tabWidth: 2 }] },
  },
);
