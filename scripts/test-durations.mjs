// Rewrite test/durations.json (the order test files start in, see test/sequencer.ts) from the
// test-results.json a CI run writes: each file's seconds, rounded to a tenth.
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const results = JSON.parse(readFileSync(process.argv[2] ?? "test-results.json", "utf8"));
const durations = Object.fromEntries(
  results.testResults
    .map((suite) => [relative(process.cwd(), suite.name), Math.round((suite.endTime - suite.startTime) / 100) / 10])
    .sort((a, b) => b[1] - a[1]),
);
writeFileSync("test/durations.json", `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
