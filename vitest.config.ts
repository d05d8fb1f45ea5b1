import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous defaults: e2e tests spawn real servers, and CI may share its two cores with other work.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // CI also writes a JSON summary, which .ci/run turns into one "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    ...(process.env.CI ? { outputFile: { json: "test-results.json" } } : {}),
  },
});
