import { defineConfig } from "vitest/config";

/** `npm run test:browser`: reports opened in headless Chromium (Debian's chromium package). */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser-test.ts"],
    pool: "forks",
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
