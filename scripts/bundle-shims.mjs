// Injected into the CLI bundle (scripts/bundle.mjs): CommonJS dependencies bundled into an ES
// module still read __filename and __dirname (write-file-atomic names its temporary files with it).
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const __filename = fileURLToPath(import.meta.url);
export const __dirname = dirname(__filename);
