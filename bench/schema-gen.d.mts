// Types for bench/schema-gen.mjs (the schema pair generator shared by the soundness test and bench/schema.mjs).

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Dialect = "2020-12" | "draft-07";

/** A seeded PRNG (mulberry32). */
export interface Random {
  next(): number;
  int(n: number): number;
  chance(p: number): boolean;
  pick<T>(list: readonly T[]): T;
}
export function createRandom(seed: number): Random;

/** A realistic input schema from test/fixtures/schema-seeds/. */
export interface Seed {
  readonly name: string;
  readonly source: string;
  readonly dialect: Dialect;
  readonly schema: Json;
}
export function loadSeeds(dir: string): Seed[];

/** Resolves a local `#...` reference (JSON Pointer or anchor) in a document, independently of the analyzer. */
export function resolveLocal(root: unknown, ref: string): unknown;

export interface Operator {
  readonly dialects?: readonly Dialect[];
}
/** Mutation operators by name. */
export const MUTATIONS: Readonly<Record<string, Operator>>;
export function mutate(rng: Random, schema: Json, dialect: Dialect, name: string): Json;
export function pickMutation(rng: Random, dialect: Dialect): string;

/** Equivalence-preserving rewrites by name. */
export const REWRITES: Readonly<Record<string, Operator>>;
/** The rewritten document, or undefined when the rewrite found nowhere to apply. */
export function rewrite(rng: Random, schema: Json, dialect: Dialect, name: string): Json | undefined;
export function pickRewrite(rng: Random, dialect: Dialect): string;

/** Restructurings by name: equivalent ones, and narrowings that ask for nothing new. */
export const RESTRUCTURES: Readonly<Record<string, Operator & { readonly equivalent: boolean }>>;
/** The restructured document, or undefined when the restructuring found nowhere to apply. */
export function restructureSchema(rng: Random, schema: Json, dialect: Dialect, name: string): Json | undefined;
export function pickRestructure(rng: Random, dialect: Dialect): string;

/** Candidate instances for a pair: sampled from both schemas, perturbed, plus vocabulary scalars. */
export function instancesFor(rng: Random, before: Json, after: Json, count?: number): Json[];

/** What createValidators needs from an ajv instance. */
export interface Compiler {
  compile(schema: object | boolean): (data: unknown) => unknown;
}
/** A cached validator, or undefined when ajv cannot compile or run the schema. */
export type Validator = (
  dialect: Dialect,
  schema: Json,
  lenient?: boolean,
) => ((value: unknown) => boolean) | undefined;
export function createValidators(make: (dialect: Dialect, lenient: boolean) => Compiler): Validator;

export interface Finding {
  readonly kind: string;
  readonly reason: string;
  readonly path: string;
}

export interface Example {
  readonly seed: number;
  readonly start: string;
  readonly op?: string;
  readonly applied?: readonly string[];
  readonly before: Json;
  readonly after: Json;
  readonly instance?: Json;
  readonly findings?: readonly Finding[];
}

export interface CaseOptions {
  readonly seed: number;
  readonly seeds: readonly Seed[];
  readonly compareSchemas: (before: unknown, after: unknown) => readonly Finding[];
  readonly validator: Validator;
  readonly kind: "mutation" | "equivalence" | "restructure";
  /** Instances per pair (default 40). */
  readonly instances?: number;
}

export interface CaseResult {
  readonly kind: "mutation" | "equivalence" | "restructure";
  readonly seed: number;
  readonly dialect: Dialect;
  /** Pairs generated. */
  readonly pairs: number;
  /** Pairs ajv could judge (both schemas compiled and ran). */
  readonly judged: number;
  /** Mutation pairs with an instance only the new schema accepts. */
  readonly witnesses: number;
  /** Witnesses explained by parameters removed from `properties` alone (reported as warnings, see runCase). */
  readonly excused: number;
  readonly missed: Example[];
  readonly falseWidened: Example[];
  /** Equivalence pairs with a text finding (every rewrite keeps the text the model reads). */
  readonly falseText: Example[];
  readonly notEquivalent: Example[];
  /** Restructurings where ajv found an instance the new schema accepts and the old one rejects (generator bugs). */
  readonly notNarrowing: Example[];
}

export interface Totals {
  pairs: number;
  judged: number;
  witnesses: number;
  excused: number;
  mutationPairs: number;
  equivalencePairs: number;
  /** Restructure pairs judged (ajv found no instance only the new schema accepts). */
  restructurePairs: number;
  /** Judged pairs (of either kind) per dialect. */
  byDialect: Record<Dialect, number>;
  missed: Example[];
  falseWidened: Example[];
  falseText: Example[];
  notEquivalent: Example[];
  notNarrowing: Example[];
}

/** Generates and judges one case (a mutation chain or an equivalence rewrite) from a seed. */
export function runCase(options: CaseOptions): CaseResult;
/** Adds a case result into running totals (a fresh total when `totals` is undefined). */
export function addUp(totals: Totals | undefined, result: CaseResult): Totals;
