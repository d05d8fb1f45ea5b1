/** The shared option walker: finds where a launcher's own flags end, which flags took values, and what is unknown. */

/** A launcher's options. Short flags are written `-x`, long ones `--name` (or `-name` for Go-style tools). */
export interface FlagTable {
  /** Flags that take a value, by every spelling. */
  values: ReadonlySet<string>;
  /** Flags that take no value. */
  booleans: ReadonlySet<string>;
  /** Unknown flags matching this take a value (npm's `--@scope:registry URL`). */
  valuePattern?: RegExp;
  /** Unknown flags matching this take no value (npm's `--no-*` negations, deno's permissions). */
  booleanPattern?: RegExp;
  /** Flag spellings that mean the same flag, mapped to one name (`-p` -> `--package`). */
  aliases?: Readonly<Record<string, string>>;
  /** Compare flag names case-insensitively (PowerShell, cmd). */
  ignoreCase?: boolean;
  /**
   * A boolean flag also takes a following `true` or `false` (npm's option parser, nopt, does):
   * `npx -y true pkg` runs pkg; read naively, `true` would look like the package.
   */
  booleanLiterals?: boolean;
}

/** One value flag and the value it took. */
export interface FlagValue {
  flag: string;
  value: string;
}

/** Result of walking the options before the first positional. */
export interface FlagWalk {
  values: FlagValue[];
  booleans: string[];
  /** Positionals met before `--` (only with `interleaved`; otherwise the first positional starts `rest`). */
  positionals: string[];
  /** Without `interleaved`: the first positional and everything after it. Always: everything after `--`. */
  rest: string[];
  /** True when `rest` starts after a `--`. */
  afterDashDash: boolean;
  /** First flag the table does not know and that has no `=value`; the walk stops there. */
  unknown: string | null;
  /** A value flag at the very end with no value. */
  missingValue: string | null;
}

/**
 * Walk `tokens` (the launcher's arguments, without its own name). By default the first positional
 * stops the walk, as npx, uvx and docker do. With `interleaved`, options may follow positionals
 * (npm exec); the walk then stops only at `--`.
 */
export function walkFlags(tokens: readonly string[], table: FlagTable, interleaved = false): FlagWalk {
  const walk: FlagWalk = {
    values: [],
    booleans: [],
    positionals: [],
    rest: [],
    afterDashDash: false,
    unknown: null,
    missingValue: null,
  };
  const norm = (flag: string) => {
    const cased = table.ignoreCase === true ? flag.toLowerCase() : flag;
    return table.aliases?.[cased] ?? cased;
  };
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (token === "--") {
      walk.rest = tokens.slice(i + 1);
      walk.afterDashDash = true;
      return walk;
    }
    if (!token.startsWith("-") || token === "-") {
      if (!interleaved) {
        walk.rest = tokens.slice(i);
        return walk;
      }
      walk.positionals.push(token);
      i++;
      continue;
    }
    const eq = token.indexOf("=");
    const name = norm(eq > 0 ? token.slice(0, eq) : token);
    if (table.values.has(name) || (table.valuePattern?.test(name) ?? false)) {
      if (eq > 0) {
        walk.values.push({ flag: name, value: token.slice(eq + 1) });
        i++;
      } else if (i + 1 < tokens.length) {
        walk.values.push({ flag: name, value: tokens[i + 1] as string });
        i += 2;
      } else {
        walk.missingValue = name;
        return walk;
      }
      continue;
    }
    if (table.booleans.has(name) || (table.booleanPattern?.test(name) ?? false)) {
      walk.booleans.push(name);
      i += eq < 0 && takesLiteral(table, tokens[i + 1]) ? 2 : 1;
      continue;
    }
    if (eq > 0 && token.startsWith("--")) {
      // `--long=value` is self-contained even when the flag is unknown.
      walk.values.push({ flag: name, value: token.slice(eq + 1) });
      i++;
      continue;
    }
    if (!token.startsWith("--") && token.length > 2) {
      // A cluster of short flags (-it, -ie NAME): the first value flag takes the rest or the next token.
      const step = walkCluster(token, tokens[i + 1], table, norm, walk);
      if (step === 0) {
        walk.unknown = token;
        return walk;
      }
      i += step;
      continue;
    }
    walk.unknown = token;
    return walk;
  }
  return walk;
}

/** Walk `-abc`; returns how many tokens were used (1 or 2), or 0 when a letter is unknown. */
function walkCluster(token: string, next: string | undefined, table: FlagTable, norm: (flag: string) => string, walk: FlagWalk): number {
  for (let j = 1; j < token.length; j++) {
    const flag = norm(`-${token[j]}`);
    if (table.values.has(flag)) {
      const remainder = token.slice(j + 1).replace(/^=/, "");
      if (remainder !== "") {
        walk.values.push({ flag, value: remainder });
        return 1;
      }
      if (next === undefined) {
        walk.missingValue = flag;
        return 1;
      }
      walk.values.push({ flag, value: next });
      return 2;
    }
    if (!table.booleans.has(flag)) return 0;
    walk.booleans.push(flag);
  }
  return takesLiteral(table, next) ? 2 : 1;
}

/** nopt reads `true` / `false` after a boolean flag as its value. */
function takesLiteral(table: FlagTable, next: string | undefined): boolean {
  return table.booleanLiterals === true && (next === "true" || next === "false");
}

/** Values of one flag, in order. */
export function valuesOf(walk: FlagWalk, flag: string): string[] {
  return walk.values.filter((entry) => entry.flag === flag).map((entry) => entry.value);
}

/** Build a set from a space-separated list. */
export function flagSet(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter((flag) => flag !== ""));
}
