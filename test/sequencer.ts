// The order test files start in. With three workers on two cores, the run ends when its longest
// file does, so the longest files start first (longest-processing-time order): a file that takes
// minutes and starts last would otherwise add its whole length to the run. Vitest keeps such
// durations in a cache, but a fresh clone (CI) has none, so the measured order is kept here.
// test/durations.json holds each file's seconds from a full run; `npm run test:durations` rewrites
// it from test-results.json. A file it does not list counts as 10 s.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const durations = JSON.parse(readFileSync(new URL("./durations.json", import.meta.url), "utf8")) as Record<string, number>;
const UNKNOWN_SECONDS = 10;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (file: TestSpecification) => durations[relative(file.project.config.root, file.moduleId)] ?? UNKNOWN_SECONDS;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
