/** PowerShell (`powershell`, `pwsh`) with `-Command`: the rest of the line is the script. `-EncodedCommand` is not read. */

import { commandName } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";

// Parameters that take a value; PowerShell accepts any unique prefix of a parameter name.
const VALUE_PARAMETERS = [
  "executionpolicy",
  "windowstyle",
  "inputformat",
  "outputformat",
  "configurationname",
  "workingdirectory",
  "version",
  "settingsfile",
  "custompipename",
];
const SWITCHES = ["noprofile", "nologo", "noninteractive", "noexit", "sta", "mta", "login", "noprofileloadtime", "interactive"];
const ALIASES: Readonly<Record<string, string>> = {
  c: "command",
  e: "encodedcommand",
  ec: "encodedcommand",
  enc: "encodedcommand",
  f: "file",
  ep: "executionpolicy",
  ex: "executionpolicy",
  w: "windowstyle",
  wd: "workingdirectory",
  o: "outputformat",
  if: "inputformat",
  l: "login",
  cwa: "commandwithargs",
  nop: "noprofile",
  nol: "nologo",
  noni: "noninteractive",
};
const ALL = [...VALUE_PARAMETERS, ...SWITCHES, "command", "encodedcommand", "file", "commandwithargs"];

function resolveParameter(token: string): string | null {
  const name = token.replace(/^[-/]/, "").replace(/:.*$/s, "").toLowerCase();
  if (name === "") return null;
  const alias = ALIASES[name];
  if (alias !== undefined) return alias;
  if (ALL.includes(name)) return name;
  const matches = ALL.filter((full) => full.startsWith(name));
  return matches.length === 1 ? (matches[0] as string) : null;
}

/** powershell / pwsh: `<ps> [-NoProfile] [-ExecutionPolicy X] -Command <script...>`. */
export const powershell: CommandHandler = {
  id: "powershell -Command",
  commands: ["powershell", "pwsh", "powershell_ise"],
  parse(argv) {
    const result = emptyParse();
    // pwsh treats a bare first argument as a file to run; Windows PowerShell treats it as a command.
    const bareIsCommand = commandName(argv[0] ?? "") !== "pwsh";
    for (let i = 1; i < argv.length; i++) {
      const token = argv[i] as string;
      const parameter = /^[-/]/.test(token) ? resolveParameter(token) : null;
      if (parameter === null) {
        if (/^[-/]/.test(token)) return { ...result, problems: [{ reason: "unknown_flag", flag: token.replace(/:.*$/s, "").slice(0, 40) }] };
        if (bareIsCommand) result.nested.push({ script: argv.slice(i).join(" "), dialect: "powershell" });
        return result;
      }
      if (parameter === "command" || parameter === "commandwithargs") {
        const script = argv.slice(i + 1).join(" ");
        if (script !== "" && script !== "-") result.nested.push({ script, dialect: "powershell" });
        return result;
      }
      if (parameter === "encodedcommand") return { ...result, problems: [{ reason: "encoded_command" }] };
      if (parameter === "file") return result;
      if (VALUE_PARAMETERS.includes(parameter) && !token.includes(":")) i++;
    }
    return result;
  },
};
