/** `python -m pip|uv|pipx ...` hands over to that tool; any other python invocation runs local code. */

import { type CommandHandler, emptyParse } from "../types.js";

const TOOLS = new Set(["pip", "uv", "pipx"]);
// Interpreter options that take a value (`-X dev`, `-W error`); every other option is a flag.
const VALUE_OPTIONS = new Set(["-X", "-W", "--check-hash-based-pycs"]);

/** python / python3 / py: find `-m MODULE`. */
export const python: CommandHandler = {
  id: "python -m",
  commands: ["python", "py"],
  parse(argv) {
    const result = emptyParse();
    for (let i = 1; i < argv.length; i++) {
      const token = argv[i] as string;
      if (!token.startsWith("-")) return result;
      // `-c CODE` runs inline code, which may start anything.
      if (token === "-c" || /^-[A-Za-z]*c/.test(token)) return { ...result, opaque: true };
      if (VALUE_OPTIONS.has(token)) {
        i++;
        continue;
      }
      if (token === "-m" || token.startsWith("-m")) {
        const module = token === "-m" ? argv[i + 1] : token.slice(2);
        const rest = argv.slice(token === "-m" ? i + 2 : i + 1);
        if (module !== undefined && TOOLS.has(module)) result.nested.push({ argv: [module, ...rest] });
        return result;
      }
    }
    return result;
  },
};
