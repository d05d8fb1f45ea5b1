/** check-config's file IO: read config files, find the usual ones for this user, read a --known-bad file. */

import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { InputFileError } from "../errors.js";
import { readRequiredText, readTextIfExists } from "../lock/io.js";
import { neutralize } from "../text/neutralize.js";
import { configCandidates, type LocationContext } from "./locations.js";
import { readConfigText } from "./readers/index.js";
import type { ConfigDocument } from "./types.js";

/** A config file and what was read from it. */
export interface LoadedConfig {
  path: string;
  document: ConfigDocument;
}

/** Read and parse one config file that must exist. */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  const text = await readTextIfExists(path);
  if (text === null) throw new InputFileError(`config file ${neutralize(path)} does not exist`);
  return { path, document: readConfigText(text, path) };
}

/** Read the text of a `--known-bad FILE`, which must exist. */
export async function readKnownBadText(path: string): Promise<string> {
  return readRequiredText(path, "--known-bad file");
}

/** The context of this process: home folder, platform, environment, working folder. */
export function currentContext(): LocationContext {
  return { platform: process.platform, home: homedir(), cwd: process.cwd(), env: process.env };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Where discovery looks, for a message: each file, or a folder with a star for the names it tries. */
export function searchedPlaces(context: LocationContext = currentContext()): string[] {
  const places = configCandidates(context).map((candidate) =>
    "path" in candidate ? candidate.path : join(candidate.dir, candidate.tail === "" ? "*" : join("*", candidate.tail)),
  );
  return [...new Set(places)];
}

/** The usual config files that exist, in search order, without duplicates. */
export async function findDefaultConfigs(context: LocationContext = currentContext()): Promise<string[]> {
  const found: string[] = [];
  const add = async (path: string) => {
    if (!found.includes(path) && (await isFile(path))) found.push(path);
  };
  for (const candidate of configCandidates(context)) {
    if ("path" in candidate) {
      await add(candidate.path);
      continue;
    }
    let names: string[];
    try {
      names = (await readdir(candidate.dir)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (candidate.pattern.test(name)) await add(candidate.tail === "" ? join(candidate.dir, name) : join(candidate.dir, name, candidate.tail));
    }
  }
  return found;
}
