/** `env [options] [NAME=VALUE]... command`: assignments are dropped (never shown), the command is checked. */

import { isAssignment } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";

const VALUE_OPTIONS = new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string", "-P", "--default-signal", "--ignore-signal", "--block-signal"]);

/** env / /usr/bin/env. */
export const env: CommandHandler = {
  id: "env",
  commands: ["env"],
  parse(argv) {
    const result = emptyParse();
    let i = 1;
    while (i < argv.length) {
      const token = argv[i] as string;
      if (token === "-S" || token === "--split-string" || token.startsWith("--split-string=") || /^-S./.test(token)) {
        // -S splits one string into the command and its arguments.
        const script = token === "-S" || token === "--split-string" ? argv[i + 1] : token.replace(/^(--split-string=|-S)/, "");
        const after = argv.slice(token === "-S" || token === "--split-string" ? i + 2 : i + 1);
        if (script !== undefined) result.nested.push({ script: [script, ...after].join(" "), dialect: "posix" });
        return result;
      }
      if (token === "--") {
        i++;
        break;
      }
      if (VALUE_OPTIONS.has(token)) {
        i += 2;
        continue;
      }
      if (token.startsWith("-") && token !== "-") {
        i++;
        continue;
      }
      if (isAssignment(token)) {
        i++;
        continue;
      }
      break;
    }
    while (i < argv.length && isAssignment(argv[i] as string)) i++;
    if (i < argv.length) result.nested.push({ argv: argv.slice(i) });
    return result;
  },
};
