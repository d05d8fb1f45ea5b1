/** `cmd /c` and `cmd /k`: the rest of the line is one command, unless cmd's metacharacters make it more. */

import { hasCmdMetachar } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";

/** cmd / cmd.exe: `cmd [/d] [/s] [/q] /c <command line>`. */
export const cmd: CommandHandler = {
  id: "cmd /c",
  commands: ["cmd"],
  parse(argv) {
    const result = emptyParse();
    for (let i = 1; i < argv.length; i++) {
      const token = (argv[i] as string).toLowerCase();
      if (token === "/c" || token === "/k") {
        const rest = argv.slice(i + 1);
        const line = rest.join(" ");
        if (rest.length === 0) return result;
        // & | ^ % < > make the line more than one plain command (or expand variables).
        if (hasCmdMetachar(line)) return { ...result, problems: [{ reason: "cmd_metachar" }] };
        result.nested.push(rest.length === 1 ? { script: rest[0] as string, dialect: "cmd" } : { argv: rest });
        return result;
      }
      if (!token.startsWith("/")) return result;
    }
    return result;
  },
};
