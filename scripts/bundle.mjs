// Bundle the CLI after tsc: dist/cli.js (tsc's entry) becomes a small ES module, and every module
// it can load (the SDK and the other dependencies included) goes into dist/chunks/, split where the
// code loads a module on demand. A start reads a few files instead of resolving and compiling some
// 300 modules, and a command compiles only its own chunks: `--version` and a check of two files
// never compile the SDK or undici. A run that launches a server loads every chunk its verdict
// needs before the spawn (loadVerdictModules), because a server running as the same user could
// rewrite these files. The library (dist/index.js and the modules beside it) stays as tsc wrote it.
//
//   node scripts/bundle.mjs        (run by npm run build and by scripts/build-if-source.mjs)
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = `${root}dist/cli.js`;
const chunks = `${root}dist/chunks`;
// tsc builds incrementally and rewrites dist/cli.js only when src/cli.ts changed, so its own output
// is kept beside the bundle as the entry for the next bundle (not shipped: see "files").
const entry = `${root}dist/cli.entry.js`;
const temporary = `${root}dist/.bundle-tmp`;
const BANNER_MARK = "__mcpLintRequire";

const written = readFileSync(cli, "utf8");
if (!written.slice(0, 200).includes(BANNER_MARK)) copyFileSync(cli, entry);
else if (!existsSync(entry)) throw new Error("dist/cli.js is a bundle and tsc's own dist/cli.entry.js is gone: delete dist/ and build again");

rmSync(temporary, { recursive: true, force: true });
await build({
  entryPoints: { cli: entry },
  outdir: temporary,
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
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
  // No keepNames: its __name() call on every closure created cost a quarter of a 250,000-change
  // check. Nothing here reads a function's or class's name (errors set their own `name`).
  minify: true,
  legalComments: "none",
  logLevel: "error",
});
// The chunks go in first and the entry last, so a failed bundle never leaves an entry without its
// chunks (chunk names carry a content hash, so old and new ones do not collide).
rmSync(chunks, { recursive: true, force: true });
renameSync(`${temporary}/chunks`, chunks);
renameSync(`${temporary}/cli.js`, cli);
rmSync(temporary, { recursive: true, force: true });
