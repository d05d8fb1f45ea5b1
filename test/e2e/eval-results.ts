// The lines an eval run wrote to results.jsonl, read raw (the tests check what was written, not
// what the reader makes of it). Not a test file itself.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface ResultLine {
  task: string;
  arm: string;
  run: number;
  success: boolean;
  tokens: number | null;
  turns: number | null;
  toolCalls: number | null;
  error: string | null;
  agent: string;
  infrastructure: boolean;
}

export const readResults = (dir: string): ResultLine[] =>
  readFileSync(join(dir, "results.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
