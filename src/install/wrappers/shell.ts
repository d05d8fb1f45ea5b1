/** POSIX shells and fish with `-c` (also combined as `-lc`, `-ec`): the script is split and its commands checked. */

import { commandName } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";

// Options that take the next token as their value.
const VALUE_OPTIONS = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file", "-C", "--init-command"]);

/** sh, bash, zsh, dash, ksh, fish, ash, mksh: `<shell> [options] -c '<script>' [name [args]]`. */
export const shell: CommandHandler = {
  id: "sh -c",
  commands: ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"],
  parse(argv) {
    const result = emptyParse();
    const isFish = commandName(argv[0] ?? "") === "fish";
    let command = false;
    for (let i = 1; i < argv.length; i++) {
      const token = argv[i] as string;
      if (isFish && token.startsWith("--command=")) {
        result.nested.push({ script: token.slice("--command=".length), dialect: "posix" });
        return result;
      }
      if (token === "--command" || token === "-c" || /^-[A-Za-z]*c[A-Za-z]*$/.test(token)) {
        command = true;
        continue;
      }
      if (VALUE_OPTIONS.has(token)) {
        i++;
        continue;
      }
      if (token === "--") continue;
      if (/^[-+]/.test(token)) continue;
      // The first operand: the script with -c, else a script file (local) to run.
      if (command) result.nested.push({ script: token, dialect: "posix" });
      return result;
    }
    return result;
  },
};
