/** Install lint (rule I1): the public entry points for checking how an MCP server is launched. */

export { type KnownBadEntry, type KnownBadFile, type KnownBadFileEntry, type KnownBadList, loadKnownBad, validateKnownBad } from "./bad-list.js";
export { BUILTIN_KNOWN_BAD } from "./known-bad.js";
export {
  type AdvisoryFacts,
  type Ecosystem,
  type InstallArgs,
  type InstallFinding,
  type InstallKind,
  type InstallKindInfo,
  type InstallReason,
  INSTALL_KIND_NAMES,
  INSTALL_KINDS,
} from "./kinds.js";
export { knownBadLaunch, lintLaunch, lintShellString } from "./lint.js";
export { installMessage } from "./messages.js";
