// Bundle the CLI into one ESM file after tsc: dist/cli.js (tsc's entry) becomes the CLI with every
// module it can load, the SDK and the other dependencies included. A start then reads one file
// instead of resolving and compiling some 300 modules (about a third of a live check's own CPU
// time), and nothing the verdict needs is read from disk after the server starts. The library
// (dist/index.js and the modules beside it) stays as tsc wrote it.
//
//   node scripts/bundle.mjs        (run by npm run build and by scripts/build-if-source.mjs)
import { copyFileSync, existsSync, readFileSync, renameSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = `${root}dist/cli.js`;
// tsc builds incrementally and rewrites dist/cli.js only when src/cli.ts changed, so its own output
// is kept beside the bundle as the entry for the next bundle (not shipped: see "files").
const entry = `${root}dist/cli.entry.js`;
const temporary = `${root}dist/cli.bundle.tmp.js`;
const BANNER_MARK = "__mcpLintRequire";

const written = readFileSync(cli, "utf8");
if (!written.slice(0, 200).includes(BANNER_MARK)) copyFileSync(cli, entry);
else if (!existsSync(entry)) throw new Error("dist/cli.js is a bundle and tsc's own dist/cli.entry.js is gone: delete dist/ and build again");

await build({
  entryPoints: [entry],
  outfile: temporary,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // CommonJS dependencies call require() for Node's own modules; an ESM bundle needs one made for it.
  banner: { js: `import { createRequire as ${BANNER_MARK} } from "node:module";\nconst require = ${BANNER_MARK}(import.meta.url);` },
  inject: [`${root}scripts/bundle-shims.mjs`],
  // ES module builds first: jsonc-parser's "main" is a UMD file whose require() calls a bundler cannot follow.
  mainFields: ["module", "main"],
  // Smaller to read at each start; the messages users see are strings, which minifying keeps.
  minify: true,
  keepNames: true,
  legalComments: "none",
  logLevel: "error",
});
// Replaced in one step, so a failed bundle never leaves half a CLI.
renameSync(temporary, cli);
