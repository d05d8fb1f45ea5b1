#!/usr/bin/env node
// Soundness and precision of the schema widening analyzer on generated pairs, against ajv.
//
//   npx tsc -p tsconfig.build.json && node bench/schema.mjs [--pairs N] [--seed S] [--show K]
//
// Runs the generator in bench/schema-gen.mjs against the BUILT analyzer (dist/schema/index.js, or the module
// named by MCP_LINT_SCHEMA_MODULE): N mutation pairs (default 100000, each judged by ajv on sampled
// instances), N/4 equivalence pairs (rewrites that keep the accepted set) and N/5 restructured pairs
// (refactorings that accept nothing new). Prints one line:
//
//   pairs <judged mutation pairs>, witnesses <pairs where ajv found an instance only the new schema accepts>,
//   missed <witnesses without a widened finding>, false-widened <equivalence or restructured pairs flagged widened>
//
// followed by the equivalence pair count, the elapsed time and the seed (random unless --seed). --show K
// prints up to K missed / false-widened examples to stderr. Exit status: 0 when all three failure counts are
// zero, 1 when not, 2 on error.

import { performance } from "node:perf_hooks";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { addUp, createRandom, createValidators, loadSeeds, runCase } from "./schema-gen.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function parseArgs(argv) {
  const options = { pairs: 100_000, seed: undefined, show: 0 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const number = Number(value);
    if (flag === "--pairs" && Number.isSafeInteger(number) && number > 0) options.pairs = number;
    else if (flag === "--seed" && Number.isSafeInteger(number)) options.seed = number;
    else if (flag === "--show" && Number.isSafeInteger(number) && number >= 0) options.show = number;
    else throw new Error(`unknown or invalid option ${flag} ${value ?? ""}`.trim());
    i++;
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const modulePath = process.env.MCP_LINT_SCHEMA_MODULE ?? resolve(repo, "dist/schema/index.js");
  const { compareSchemas } = await import(pathToFileURL(modulePath).href);
  const seeds = loadSeeds(resolve(repo, "test/fixtures/schema-seeds"));
  const ajvOptions = { strict: false, validateFormats: false, allErrors: false, code: { optimize: false } };
  const validator = createValidators((dialect, lenient) => {
    const opts = { ...ajvOptions, validateSchema: !lenient };
    return dialect === "draft-07" ? new Ajv(opts) : new Ajv2020(opts);
  });

  const master = createRandom(seed);
  const equivalenceTarget = Math.ceil(options.pairs / 4);
  const restructureTarget = Math.ceil(options.pairs / 5);
  const started = performance.now();
  let totals;
  const short = () => ({
    mutation: (totals?.mutationPairs ?? 0) < options.pairs,
    equivalence: (totals?.equivalencePairs ?? 0) < equivalenceTarget,
    restructure: (totals?.restructurePairs ?? 0) < restructureTarget,
  });
  for (let left = short(); left.mutation || left.equivalence || left.restructure; left = short()) {
    const roll = master.next();
    const kind =
      left.equivalence && (roll < 0.2 || !(left.mutation || left.restructure))
        ? "equivalence"
        : left.restructure && (roll < 0.4 || !left.mutation)
          ? "restructure"
          : left.mutation
            ? "mutation"
            : left.equivalence
              ? "equivalence"
              : "restructure";
    totals = addUp(totals, runCase({ seed: master.int(2 ** 31), seeds, compareSchemas, validator, kind }));
  }
  const seconds = (performance.now() - started) / 1000;
  const failures = [...totals.missed, ...totals.falseWidened, ...totals.notEquivalent, ...totals.notNarrowing];
  for (const example of failures.slice(0, options.show)) process.stderr.write(`${JSON.stringify(example)}\n`);
  console.log(
    `pairs ${totals.mutationPairs}, witnesses ${totals.witnesses}, missed ${totals.missed.length}, ` +
      `false-widened ${totals.falseWidened.length} (equivalence pairs ${totals.equivalencePairs}, ` +
      `not equivalent ${totals.notEquivalent.length}; restructured pairs ${totals.restructurePairs}, ` +
      `not narrowing ${totals.notNarrowing.length}); ${seconds.toFixed(1)} s; seed ${seed}`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main().catch((error) => {
  process.stderr.write(`schema bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
