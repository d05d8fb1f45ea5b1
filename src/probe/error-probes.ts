/** `--error-probes`: bad arguments built from a read-only tool's own schema, each varying one parameter of otherwise valid arguments. Pure. */

import { isJsonObject, type JsonObject, ownField } from "../lock/snapshot.js";
import { checkArguments } from "./arguments.js";
import { requiredSample, sampleValue, schemaType } from "./samples.js";
import { type Parameter, parametersOf, squash } from "./tools.js";
import type { ErrorVariant } from "./types.js";

/** A path that exists on no machine. */
export const UNKNOWN_PATH = "/mcp-lint/does/not/exist.txt";
/** A URL under the reserved `.invalid` top-level domain, which never resolves. */
export const UNKNOWN_URL = "https://mcp-lint.invalid/does/not/exist";
/** An identifier that points at nothing. */
export const UNKNOWN_ID = "mcp-lint-does-not-exist-0000";
/** A UUID nobody issues (version 4 layout, all zeros). */
export const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";
/** An enum value no schema lists. */
export const INVALID_CHOICE = "mcp-lint-invalid-choice";

/** One generated probe: which bad argument, on which parameter, and the arguments to send. */
export interface ErrorProbe {
  variant: ErrorVariant;
  param: string;
  args: JsonObject;
}

/**
 * The error probes for one tool, in a fixed order: a missing required argument, a wrong type, an
 * invalid enum value, and an unknown value (a path, URL or id that points at nothing). A variant
 * the schema gives no handle for (no required parameter, no enum) is left out, and so is every
 * variant when no valid arguments can be built to vary (a `pattern` the samples cannot meet): a
 * failure would then say nothing about the one bad argument.
 */
export function errorProbesFor(tool: JsonObject): ErrorProbe[] {
  const root = ownField(tool, "inputSchema");
  if (!isJsonObject(root)) return [];
  const base = requiredSample(root, root);
  if (checkArguments(root, base).ok !== true) return [];
  const params = parametersOf(tool);
  const probes: ErrorProbe[] = [];
  const missing = params.find((param) => param.required);
  if (missing !== undefined) {
    const args = { ...base };
    delete args[missing.name];
    probes.push({ variant: "missing_required", param: missing.name, args });
  }
  const typed = params.find((param) => wrongValue(param) !== undefined);
  if (typed !== undefined) probes.push({ variant: "wrong_type", param: typed.name, args: { ...base, [typed.name]: wrongValue(typed) } });
  const choice = params.find((param) => stringEnum(param.schema));
  if (choice !== undefined) {
    const value = schemaType(choice.schema) === "array" ? [INVALID_CHOICE] : INVALID_CHOICE;
    probes.push({ variant: "invalid_enum", param: choice.name, args: { ...base, [choice.name]: value } });
  }
  for (const param of params) {
    const value = unknownValue(param, root);
    if (value === undefined) continue;
    const args = { ...base, [param.name]: value };
    // The unknown value must pass the schema: it tests the tool's own handling, not validation.
    if (checkArguments(root, args).ok !== true) continue;
    probes.push({ variant: "unknown_value", param: param.name, args });
    break;
  }
  return probes;
}

/** A value of another type than the parameter declares; undefined when it declares none (or any). */
function wrongValue(param: Parameter): unknown {
  const type = ownField(param.schema, "type");
  if (typeof type !== "string") return undefined;
  switch (type) {
    case "string":
      return 12345;
    case "integer":
    case "number":
      return "not-a-number";
    case "boolean":
      return "not-a-boolean";
    case "array":
      return "not-an-array";
    case "object":
      return "not-an-object";
    default:
      return undefined;
  }
}

/** True when the schema (or its items) is an enum of strings. */
function stringEnum(schema: JsonObject): boolean {
  const values = ownField(schema, "enum") ?? (isJsonObject(ownField(schema, "items")) ? ownField(ownField(schema, "items") as JsonObject, "enum") : undefined);
  return Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === "string");
}

const PATH_NAME = /(path|file|dir|folder|directory)/;
const URL_NAME = /(url|uri|href|link|endpoint)/;
const ID_NAME = /(^id$|id$|ids$|uuid|key$|sha$|ref$|slug$|^name$|names$|entity|node)/;

/** A well-formed value that points at nothing, chosen by the parameter's name or format; undefined for other parameters. */
function unknownValue(param: Parameter, root: unknown): unknown {
  const type = schemaType(param.schema);
  const itemSchema = type === "array" ? ownField(param.schema, "items") : param.schema;
  const item = isJsonObject(itemSchema) ? itemSchema : {};
  if (schemaType(item) !== "string" || Array.isArray(ownField(item, "enum"))) return undefined;
  const name = squash(param.name);
  const format = ownField(item, "format");
  let value: string | undefined;
  if (format === "uri" || format === "url" || format === "iri" || URL_NAME.test(name)) value = UNKNOWN_URL;
  else if (PATH_NAME.test(name)) value = UNKNOWN_PATH;
  else if (format === "uuid") value = UNKNOWN_UUID;
  else if (ID_NAME.test(name)) value = UNKNOWN_ID;
  if (value === undefined) return undefined;
  if (type !== "array") return value;
  const sample = sampleValue(param.schema, root, param.name);
  const count = Array.isArray(sample) && sample.length > 0 ? sample.length : 1;
  return Array.from({ length: count }, () => value);
}
