/** `wsl [-d distro] [-u user] [-e] command...`: the command runs inside WSL and is checked like any other. */

import { type CommandHandler, emptyParse } from "../types.js";

const VALUE_OPTIONS = new Set(["-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id"]);

/** wsl / wsl.exe. */
export const wsl: CommandHandler = {
  id: "wsl",
  commands: ["wsl"],
  parse(argv) {
    const result = emptyParse();
    for (let i = 1; i < argv.length; i++) {
      const token = argv[i] as string;
      if (token === "-e" || token === "--exec" || token === "--") {
        if (i + 1 < argv.length) result.nested.push({ argv: argv.slice(i + 1) });
        return result;
      }
      if (VALUE_OPTIONS.has(token)) {
        i++;
        continue;
      }
      if (token.startsWith("-")) continue;
      result.nested.push({ argv: argv.slice(i) });
      return result;
    }
    return result;
  },
};
