import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous defaults: e2e tests spawn real servers, and CI may share its two cores with other work.
    testTimeout: 60_000,
    // Most end-to-end time is spent waiting on spawned servers, so three workers overlap those waits
    // even on two cores with one of them busy (the default, cores - 1, runs the files one at a time).
    maxWorkers: 3,
    hookTimeout: 30_000,
    // The longest files start first, so none of them is left to run alone at the end.
    sequence: { sequencer: LongestFirstSequencer },
    // CI also writes a JSON summary, which .ci/run turns into one "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    ...(process.env.CI ? { outputFile: { json: "test-results.json" } } : {}),
  },
});
