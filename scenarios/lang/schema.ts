/**
 * A small schema language for scenario files. The same {@link Schema} value validates located YAML
 * (collecting every error, each naming file, line, column and key path, with the nearest valid name
 * for a misspelt key), converts values (quantities to base units, defaults filled) and emits JSON
 * Schema (draft 2020-12) so editors complete and check scenario files. Schemas are plain data built
 * with {@link s}, so registries can contribute parts at run time.
 *
 * @packageDocumentation
 */
import type { Dimension, ParamDoc } from "../../engine/params.js";
import { nearestName } from "../../engine/registry.js";
import { ExpressionError, checkExpressionSyntax, expressionReferences, isExpressionConstant } from "./expression.js";
import { ScenarioError, ScenarioErrors, type KeyPath, type SourceDoc, type SourcePosition } from "./source.js";
import { QuantityError, acceptsBareNumber, describeDimension, formatQuantity, parseQuantity, unitsOf } from "./units.js";

interface Documented {
  /** Shown as `description` in JSON Schema and in help. */
  readonly doc?: string;
}

/** A map with declared keys. */
export interface ObjectSchema extends Documented {
  readonly kind: "object";
  readonly fields: Readonly<Record<string, Schema>>;
  /** Keys that must be present (every field not wrapped in {@link s.optional}, plus any listed). */
  readonly required: readonly string[];
  /** Schema of values under undeclared keys; absent: undeclared keys are errors. */
  readonly additional?: Schema;
}
/** A string, optionally matching a regular expression. */
export interface StringSchema extends Documented {
  readonly kind: "string";
  readonly pattern?: string;
}
/** A finite number, optionally an integer, within inclusive bounds. */
export interface NumberSchema extends Documented {
  readonly kind: "number";
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}
/** true or false. */
export interface BooleanSchema extends Documented {
  readonly kind: "boolean";
}
/** A quantity with units; validates to base units. Bounds are in base units. */
export interface QuantitySchema extends Documented {
  readonly kind: "quantity";
  readonly dimension: Dimension;
  readonly min?: number;
  readonly max?: number;
}
/** One of a list of strings. */
export interface EnumSchema extends Documented {
  readonly kind: "enum";
  readonly values: readonly string[];
}
/** Exactly one value. */
export interface LiteralSchema extends Documented {
  readonly kind: "literal";
  readonly value: string | number | boolean;
}
/** A list. */
export interface ArraySchema extends Documented {
  readonly kind: "array";
  readonly item: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
}
/** A map with arbitrary keys (optionally matching a pattern) and values of one schema. */
export interface RecordSchema extends Documented {
  readonly kind: "record";
  readonly value: Schema;
  readonly keyPattern?: string;
}
/** A mathjs expression given as text or a number; validates to the text. */
export interface ExpressionSchema extends Documented {
  readonly kind: "expression";
  /** When given, the only symbols the expression may use as values (mathjs constants such as `pi` aside). */
  readonly known?: readonly string[];
}
/** One of several schemas; with a discriminator key, chosen by that key's value. */
export interface UnionSchema extends Documented {
  readonly kind: "union";
  readonly options: readonly Schema[];
  readonly discriminator?: string;
}
/** A field that may be left out; `defaultValue` (already converted, base units) fills it. */
export interface OptionalSchema extends Documented {
  readonly kind: "optional";
  readonly schema: Schema;
  readonly defaultValue?: unknown;
}
/** Anything, unchecked. */
export interface AnySchema extends Documented {
  readonly kind: "any";
}
/** A named schema resolved on first use (for recursion and for `$defs` in JSON Schema). */
export interface LazySchema extends Documented {
  readonly kind: "lazy";
  readonly name: string;
  readonly resolve: () => Schema;
}
/** A schema with an extra check run on the converted value when it is otherwise valid. */
export interface RefineSchema extends Documented {
  readonly kind: "refine";
  readonly schema: Schema;
  readonly check: RefineCheck;
}

/**
 * An extra check: call `report` for each problem; `subpath` locates it below the value, `at`
 * says whether to point at the key or the value (default: value).
 */
export type RefineCheck = (value: any, report: (message: string, subpath?: KeyPath, at?: "key" | "value") => void) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Any schema. */
export type Schema =
  | ObjectSchema
  | StringSchema
  | NumberSchema
  | BooleanSchema
  | QuantitySchema
  | EnumSchema
  | LiteralSchema
  | ArraySchema
  | RecordSchema
  | ExpressionSchema
  | UnionSchema
  | OptionalSchema
  | AnySchema
  | LazySchema
  | RefineSchema;

/** Schema builders. */
export const s = {
  /**
   * A map with declared keys. Fields are required unless wrapped in {@link s.optional}; `required`
   * adds more. Undeclared keys are errors unless `additional` gives their value schema.
   */
  object(fields: Record<string, Schema>, opts: { doc?: string; required?: readonly string[]; additional?: Schema } = {}): ObjectSchema {
    const required = Object.keys(fields).filter((k) => fields[k].kind !== "optional" || opts.required?.includes(k));
    for (const k of opts.required ?? []) if (!required.includes(k)) required.push(k);
    return { kind: "object", fields, required, additional: opts.additional, doc: opts.doc };
  },
  /** A string; `pattern` is a JavaScript/ECMA regular expression source. */
  string(opts: { doc?: string; pattern?: string } = {}): StringSchema {
    return { kind: "string", ...opts };
  },
  /** A finite number within inclusive bounds. */
  number(opts: { doc?: string; min?: number; max?: number; integer?: boolean } = {}): NumberSchema {
    return { kind: "number", ...opts };
  },
  /** An integer within inclusive bounds. */
  integer(opts: { doc?: string; min?: number; max?: number } = {}): NumberSchema {
    return { kind: "number", ...opts, integer: true };
  },
  /** true or false. */
  boolean(opts: { doc?: string } = {}): BooleanSchema {
    return { kind: "boolean", ...opts };
  },
  /** A quantity with units (see `parseQuantity`); validates to base units. Negative values only when `min` < 0. */
  quantity(dimension: Dimension, opts: { doc?: string; min?: number; max?: number } = {}): QuantitySchema {
    return { kind: "quantity", dimension, ...opts };
  },
  /** One of `values`. */
  enumOf(values: readonly string[], opts: { doc?: string } = {}): EnumSchema {
    return { kind: "enum", values, ...opts };
  },
  /** Exactly `value` (useful as a union discriminator). */
  literal(value: string | number | boolean, opts: { doc?: string } = {}): LiteralSchema {
    return { kind: "literal", value, ...opts };
  },
  /** A list of `item`s. */
  array(item: Schema, opts: { doc?: string; minItems?: number; maxItems?: number } = {}): ArraySchema {
    return { kind: "array", item, ...opts };
  },
  /** A map with arbitrary keys (matching `keyPattern` when given) and values of `value`. */
  record(value: Schema, opts: { doc?: string; keyPattern?: string } = {}): RecordSchema {
    return { kind: "record", value, ...opts };
  },
  /** A mathjs expression (text or number); syntax checked and located; validates to the text. */
  expression(opts: { doc?: string; known?: readonly string[] } = {}): ExpressionSchema {
    return { kind: "expression", ...opts };
  },
  /**
   * One of `options`. With `discriminator`, the option is chosen by the value of that key (each
   * option an object whose discriminator field is a literal or an enum); otherwise the first option
   * that validates.
   */
  union(options: readonly Schema[], opts: { doc?: string; discriminator?: string } = {}): UnionSchema {
    return { kind: "union", options, ...opts };
  },
  /** A field that may be left out, filled with `defaultValue` (converted form: base units) when given. */
  optional(schema: Schema, defaultValue?: unknown): OptionalSchema {
    return { kind: "optional", schema, defaultValue, doc: schema.doc };
  },
  /** Anything, unchecked. */
  any(opts: { doc?: string } = {}): AnySchema {
    return { kind: "any", ...opts };
  },
  /** A named schema built on first use: recursion, and one `$defs` entry in JSON Schema. */
  lazy(name: string, build: () => Schema, opts: { doc?: string } = {}): LazySchema {
    let cached: Schema | undefined;
    return { kind: "lazy", name, resolve: () => (cached ??= build()), ...opts };
  },
  /** `schema` plus an extra check on its converted value (cross-field rules). */
  refine(schema: Schema, check: RefineCheck): RefineSchema {
    return { kind: "refine", schema, check, doc: schema.doc };
  },
  /**
   * An object schema from parameter docs: dotted names become nested objects; defaults are filled
   * (nested objects whose parameters all have defaults or are optional may be left out); a parameter
   * without default that is not `optional` is required.
   * @throws Error when a name is both a parameter and a prefix of another (a programming error)
   */
  fromParams(params: readonly ParamDoc[], opts: { doc?: string; additional?: Schema } = {}): ObjectSchema {
    return fromParams(params, opts);
  },
};

interface ParamTree {
  leaves: Map<string, ParamDoc>;
  children: Map<string, ParamTree>;
}

function fromParams(params: readonly ParamDoc[], opts: { doc?: string; additional?: Schema }): ObjectSchema {
  const root: ParamTree = { leaves: new Map(), children: new Map() };
  for (const p of params) {
    const parts = p.name.split(".");
    let t = root;
    for (const part of parts.slice(0, -1)) {
      if (t.leaves.has(part)) throw new Error(`parameter '${p.name}': '${part}' is also a parameter`);
      let c = t.children.get(part);
      if (!c) t.children.set(part, (c = { leaves: new Map(), children: new Map() }));
      t = c;
    }
    const last = parts[parts.length - 1];
    if (t.children.has(last) || t.leaves.has(last)) throw new Error(`parameter '${p.name}' is declared twice or is also a group`);
    t.leaves.set(last, p);
  }
  const build = (t: ParamTree, doc?: string, additional?: Schema): { schema: ObjectSchema; defaults: Record<string, unknown>; required: boolean } => {
    const fields: Record<string, Schema> = {};
    const defaults: Record<string, unknown> = {};
    let anyRequired = false;
    for (const [key, p] of t.leaves) {
      const inner = paramSchema(p);
      if (p.default !== undefined) {
        fields[key] = s.optional(inner, p.default);
        defaults[key] = p.default;
      } else if (p.optional) fields[key] = s.optional(inner);
      else {
        fields[key] = inner;
        anyRequired = true;
      }
    }
    for (const [key, c] of t.children) {
      const sub = build(c);
      if (sub.required) {
        fields[key] = sub.schema;
        anyRequired = true;
      } else {
        fields[key] = s.optional(sub.schema, sub.defaults);
        defaults[key] = sub.defaults;
      }
    }
    return { schema: s.object(fields, { doc, additional }), defaults, required: anyRequired };
  };
  return build(root, opts.doc, opts.additional).schema;
}

function paramSchema(p: ParamDoc): Schema {
  const doc = p.doc;
  switch (p.type) {
    case "quantity":
      if (!p.dimension) throw new Error(`parameter '${p.name}': a quantity needs a dimension`);
      return s.quantity(p.dimension, { doc, min: p.min, max: p.max });
    case "integer":
      return s.integer({ doc, min: p.min, max: p.max });
    case "number":
      return s.number({ doc, min: p.min, max: p.max });
    case "boolean":
      return s.boolean({ doc });
    case "string":
      return s.string({ doc });
    case "enum":
      return s.enumOf(p.values ?? [], { doc });
    case "expression":
      return s.expression({ doc });
  }
}

// ---------------------------------------------------------------------------------------------
// Validation

interface Ctx {
  readonly file: string;
  readonly locate?: SourceDoc["locate"];
  readonly locateValue?: SourceDoc["locateValue"];
  readonly text?: string;
  readonly errors: ScenarioError[];
}

type At = "key" | "value" | "parent";

function report(ctx: Ctx, path: KeyPath, detail: string, at: At, columnShift?: number): void {
  let pos: SourcePosition | undefined;
  if (at === "value") pos = ctx.locateValue?.(path) ?? ctx.locate?.(path);
  else if (at === "key") pos = ctx.locate?.(path);
  const start = at === "parent" ? path.length - 1 : path.length;
  for (let n = start; pos === undefined && n >= 0 && ctx.locate; n--) pos = ctx.locate(path.slice(0, n));
  if (pos && columnShift !== undefined) pos = { line: pos.line, column: pos.column + columnShift };
  ctx.errors.push(new ScenarioError(detail, { file: ctx.file, line: pos?.line, column: pos?.column, path }));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function describeValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null) return "null (an empty value)";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return "a list";
  return "a map";
}

/** What a schema accepts, in words (`a map`, `a duration such as 30us or 1.5ms`, `one of 'a', 'b'`). */
export function describeSchema(schema: Schema): string {
  switch (schema.kind) {
    case "object":
    case "record":
      return "a map";
    case "string":
      return schema.pattern ? `a string matching /${schema.pattern}/` : "a string";
    case "number":
      return schema.integer ? "an integer" : "a number";
    case "boolean":
      return "true or false";
    case "quantity":
      return describeDimension(schema.dimension);
    case "enum":
      return `one of ${schema.values.map((v) => `'${v}'`).join(", ")}`;
    case "literal":
      return JSON.stringify(schema.value);
    case "array":
      return "a list";
    case "expression":
      return "an expression such as 2*x or exp(1.19*log(Q) - 3.68)";
    case "union":
      return [...new Set(schema.options.map(describeSchema))].join(" or ");
    case "optional":
    case "refine":
      return describeSchema(schema.schema);
    case "any":
      return "any value";
    case "lazy":
      return describeSchema(schema.resolve());
  }
}

/** True when `value` has the JSON type `schema` is about (used to pick union options to blame). */
function sameType(schema: Schema, value: unknown): boolean {
  switch (schema.kind) {
    case "object":
    case "record":
      return isPlainObject(value);
    case "string":
    case "enum":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "quantity":
    case "expression":
      return typeof value === "number" || typeof value === "string";
    case "literal":
      return typeof value === typeof schema.value;
    case "array":
      return Array.isArray(value);
    case "union":
      return schema.options.some((o) => sameType(o, value));
    case "optional":
    case "refine":
      return sameType(schema.schema, value);
    case "any":
      return true;
    case "lazy":
      return sameType(schema.resolve(), value);
  }
}

const NO_VALUE = Symbol("invalid");

/** Validates and converts `value` at `path`; returns NO_VALUE after reporting errors. */
function check(schema: Schema, value: unknown, path: (string | number)[], ctx: Ctx): unknown {
  const typeError = (): typeof NO_VALUE => {
    report(ctx, path, `expected ${describeSchema(schema)}, got ${describeValue(value)}`, "value");
    return NO_VALUE;
  };
  switch (schema.kind) {
    case "any":
      return value;
    case "lazy":
      return check(schema.resolve(), value, path, ctx);
    case "optional":
      return check(schema.schema, value, path, ctx);
    case "string":
      if (typeof value !== "string") return typeError();
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return typeError();
      return value;
    case "boolean":
      return typeof value === "boolean" ? value : typeError();
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return typeError();
      if (schema.integer && !Number.isInteger(value)) return typeError();
      return bounds(value, schema.min, schema.max, String, path, ctx) ? value : NO_VALUE;
    }
    case "quantity": {
      let v: number;
      try {
        v = parseQuantity(value, schema.dimension, undefined, { allowNegative: schema.min !== undefined && schema.min < 0 });
      } catch (e) {
        if (!(e instanceof QuantityError)) throw e;
        report(ctx, path, e.detail, "value");
        return NO_VALUE;
      }
      return bounds(v, schema.min, schema.max, (x) => formatQuantity(x, schema.dimension), path, ctx) ? v : NO_VALUE;
    }
    case "enum": {
      if (typeof value !== "string" || !schema.values.includes(value)) {
        const near = typeof value === "string" ? nearestName(value, schema.values) : undefined;
        report(ctx, path, `expected ${describeSchema(schema)}, got ${describeValue(value)}${near ? ` (did you mean '${near}'?)` : ""}`, "value");
        return NO_VALUE;
      }
      return value;
    }
    case "literal":
      return value === schema.value ? value : typeError();
    case "expression":
      return checkExpression(schema, value, path, ctx);
    case "array": {
      if (!Array.isArray(value)) return typeError();
      let ok = true;
      if (schema.minItems !== undefined && value.length < schema.minItems) {
        report(ctx, path, `expected at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}, got ${value.length}`, "value");
        ok = false;
      }
      if (schema.maxItems !== undefined && value.length > schema.maxItems) {
        report(ctx, path, `expected at most ${schema.maxItems} item${schema.maxItems === 1 ? "" : "s"}, got ${value.length}`, "value");
        ok = false;
      }
      const out = value.map((item, i) => check(schema.item, item, [...path, i], ctx));
      return ok && !out.includes(NO_VALUE) ? out : NO_VALUE;
    }
    case "record": {
      if (!isPlainObject(value)) return typeError();
      const out: Record<string, unknown> = {};
      let ok = true;
      const re = schema.keyPattern !== undefined ? new RegExp(schema.keyPattern, "u") : undefined;
      for (const [k, v] of Object.entries(value)) {
        if (re && !re.test(k)) {
          report(ctx, [...path, k], `key '${k}' does not match /${schema.keyPattern}/`, "key");
          ok = false;
          continue;
        }
        const c = check(schema.value, v, [...path, k], ctx);
        if (c === NO_VALUE) ok = false;
        else out[k] = c;
      }
      return ok ? out : NO_VALUE;
    }
    case "object":
      return checkObject(schema, value, path, ctx);
    case "union":
      return checkUnion(schema, value, path, ctx);
    case "refine": {
      const v = check(schema.schema, value, path, ctx);
      if (v === NO_VALUE) return v;
      let ok = true;
      schema.check(v, (message, subpath = [], at = "value") => {
        ok = false;
        report(ctx, [...path, ...subpath], message, at);
      });
      return ok ? v : NO_VALUE;
    }
  }
}

function bounds(v: number, min: number | undefined, max: number | undefined, show: (x: number) => string, path: KeyPath, ctx: Ctx): boolean {
  if (min !== undefined && v < min) {
    report(ctx, path, `must be at least ${show(min)}, got ${show(v)}`, "value");
    return false;
  }
  if (max !== undefined && v > max) {
    report(ctx, path, `must be at most ${show(max)}, got ${show(v)}`, "value");
    return false;
  }
  return true;
}

function checkObject(schema: ObjectSchema, value: unknown, path: (string | number)[], ctx: Ctx): unknown {
  if (!isPlainObject(value)) {
    report(ctx, path, `expected ${describeSchema(schema)}, got ${describeValue(value)}`, "value");
    return NO_VALUE;
  }
  const out: Record<string, unknown> = {};
  let ok = true;
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(value, k);
  const declared = Object.keys(schema.fields);
  // A misspelt key explains the missing key it was meant to be: report it once, as unknown.
  const explained = new Set<string>();
  if (!schema.additional) {
    for (const key of Object.keys(value)) {
      const near = has(key) && !Object.prototype.hasOwnProperty.call(schema.fields, key) ? nearestName(key, declared) : undefined;
      if (near !== undefined && !has(near)) explained.add(near);
    }
  }
  for (const [key, field] of Object.entries(schema.fields)) {
    if (has(key)) {
      const c = check(field, value[key], [...path, key], ctx);
      if (c === NO_VALUE) ok = false;
      else out[key] = c;
    } else if (explained.has(key)) {
      ok = false;
    } else if (schema.required.includes(key)) {
      report(ctx, [...path, key], `missing required key '${key}' (${describeSchema(field)})`, "parent");
      ok = false;
    } else if (field.kind === "optional" && field.defaultValue !== undefined) {
      out[key] = structuredClone(field.defaultValue);
    }
  }
  for (const key of Object.keys(value)) {
    if (Object.prototype.hasOwnProperty.call(schema.fields, key)) continue;
    if (schema.additional) {
      const c = check(schema.additional, value[key], [...path, key], ctx);
      if (c === NO_VALUE) ok = false;
      else out[key] = c;
      continue;
    }
    const near = nearestName(key, declared);
    const hint = near ? ` (did you mean '${near}'?)` : declared.length > 0 ? `; allowed keys: ${declared.join(", ")}` : "; no keys are allowed here";
    report(ctx, [...path, key], `unknown key '${key}'${hint}`, "key");
    ok = false;
  }
  return ok ? out : NO_VALUE;
}

/** The values of the discriminator field an option accepts. */
function discriminatorValues(option: Schema, key: string): readonly (string | number | boolean)[] {
  let o = option;
  while (o.kind === "lazy" || o.kind === "refine" || o.kind === "optional") o = o.kind === "lazy" ? o.resolve() : o.schema;
  if (o.kind !== "object") return [];
  let f = o.fields[key];
  if (f === undefined) return [];
  while (f.kind === "optional" || f.kind === "refine") f = f.schema;
  if (f.kind === "literal") return [f.value];
  if (f.kind === "enum") return f.values;
  return [];
}

function checkUnion(schema: UnionSchema, value: unknown, path: (string | number)[], ctx: Ctx): unknown {
  const key = schema.discriminator;
  if (key !== undefined) {
    if (!isPlainObject(value)) {
      report(ctx, path, `expected a map with a '${key}' key, got ${describeValue(value)}`, "value");
      return NO_VALUE;
    }
    const allowed = schema.options.flatMap((o) => discriminatorValues(o, key).map((v) => ({ v, o })));
    const names = allowed.map((a) => String(a.v));
    if (!Object.prototype.hasOwnProperty.call(value, key)) {
      report(ctx, [...path, key], `missing required key '${key}' (one of: ${names.join(", ")})`, "parent");
      return NO_VALUE;
    }
    const chosen = allowed.find((a) => a.v === value[key]);
    if (chosen === undefined) {
      const got = value[key];
      const near = typeof got === "string" ? nearestName(got, names) : undefined;
      report(ctx, [...path, key], `unknown ${key} ${typeof got === "string" ? `'${got}'` : describeValue(got)}${near ? ` (did you mean '${near}'?)` : ""}; expected one of: ${names.join(", ")}`, "value");
      return NO_VALUE;
    }
    return check(chosen.o, value, path, ctx);
  }
  const attempts = schema.options.map((o) => {
    const sub: Ctx = { ...ctx, errors: [] };
    return { o, v: check(o, value, path, sub), errors: sub.errors };
  });
  const good = attempts.find((a) => a.errors.length === 0 && a.v !== NO_VALUE);
  if (good) return good.v;
  const candidates = attempts.filter((a) => sameType(a.o, value));
  if (candidates.length === 0) {
    report(ctx, path, `expected ${describeSchema(schema)}, got ${describeValue(value)}`, "value");
    return NO_VALUE;
  }
  const best = candidates.reduce((a, b) => (b.errors.length < a.errors.length ? b : a));
  ctx.errors.push(...best.errors);
  return NO_VALUE;
}

function checkExpression(schema: ExpressionSchema, value: unknown, path: (string | number)[], ctx: Ctx): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      report(ctx, path, `expected ${describeSchema(schema)}, got ${describeValue(value)}`, "value");
      return NO_VALUE;
    }
    return String(value);
  }
  if (typeof value !== "string") {
    report(ctx, path, `expected ${describeSchema(schema)}, got ${describeValue(value)}`, "value");
    return NO_VALUE;
  }
  try {
    checkExpressionSyntax(value);
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    report(ctx, path, `${e.detail} in expression ${JSON.stringify(value)}`, "value", e.char !== undefined ? charShift(ctx, path, value, e.char) : undefined);
    return NO_VALUE;
  }
  if (schema.known) {
    const known = schema.known;
    const bad = expressionReferences(value).symbols.filter((n) => !known.includes(n) && !isExpressionConstant(n));
    if (bad.length > 0) {
      const hints = bad.map((n) => {
        const near = nearestName(n, known);
        return `'${n}'${near ? ` (did you mean '${near}'?)` : ""}`;
      });
      report(ctx, path, `unknown symbol${bad.length > 1 ? "s" : ""} ${hints.join(", ")} in expression ${JSON.stringify(value)}; known: ${[...known].sort().join(", ") || "none"}`, "value");
      return NO_VALUE;
    }
  }
  return value;
}

/** Columns from the value's start to character `char` of the expression, when the text is on one line as written. */
function charShift(ctx: Ctx, path: KeyPath, expr: string, char: number): number | undefined {
  const pos = ctx.locateValue?.(path);
  if (!pos || ctx.text === undefined) return undefined;
  const line = ctx.text.split(/\r?\n/)[pos.line - 1] ?? "";
  const at = pos.column - 1;
  if (line.startsWith(expr, at)) return Math.max(0, Math.min(char, expr.length));
  const q = line[at];
  if ((q === '"' || q === "'") && line.startsWith(expr, at + 1)) return 1 + Math.max(0, Math.min(char, expr.length));
  return undefined;
}

function valueAt(root: unknown, path: KeyPath): unknown {
  let v = root;
  for (const k of path) {
    if (typeof k === "number" ? !Array.isArray(v) : !isPlainObject(v)) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

function run<T>(schema: Schema, value: unknown, rootPath: KeyPath, ctx: Ctx): T {
  const out = check(schema, value, [...rootPath], ctx);
  if (ctx.errors.length > 0 || out === NO_VALUE) throw new ScenarioErrors(ctx.errors, ctx.file || undefined);
  return out as T;
}

/**
 * Validates the value of a located document (or the part at `rootPath`) and converts it:
 * quantities to base-unit numbers, expressions to text, defaults filled.
 *
 * @throws ScenarioErrors with every problem found, each located (file, line, column, key path):
 * unknown keys (with the nearest valid name), missing required keys (located at the parent), wrong
 * types (naming the expected type and the value found), bad quantities and expressions
 */
export function validate<T = unknown>(schema: Schema, doc: SourceDoc, rootPath: KeyPath = []): T {
  const ctx: Ctx = { file: doc.file, locate: doc.locate, locateValue: doc.locateValue?.bind(doc), text: doc.text, errors: [] };
  return run<T>(schema, valueAt(doc.value, rootPath), rootPath, ctx);
}

/**
 * Validates a value that did not come from a located document (a sub-tree, a `--set key=value`
 * override), naming `file` and `rootPath` in errors and locating them with `locate` when given.
 * @throws ScenarioErrors as {@link validate}
 */
export function validateValue<T = unknown>(schema: Schema, value: unknown, file: string, locate?: SourceDoc["locate"], rootPath: KeyPath = []): T {
  const ctx: Ctx = { file, locate, errors: [] };
  return run<T>(schema, value, rootPath, ctx);
}

// ---------------------------------------------------------------------------------------------
// JSON Schema

type Json = Record<string, unknown>;

/** The regular expression (source) a quantity string must match, for JSON Schema. */
export function quantityPattern(dimension: Dimension, allowNegative = false): string {
  const num = `${allowNegative ? "[+-]?" : "[+]?"}(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?`;
  const units = unitsOf(dimension)
    .map((u) => u.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join("|");
  if (units === "") return `^\\s*${num}\\s*$`;
  if (acceptsBareNumber(dimension)) return `^\\s*${num}\\s*(${units})?\\s*$`;
  // Zero needs no unit in any dimension.
  const zero = `[+-]?(0+(\\.0*)?|\\.0+)([eE][+-]?\\d+)?`;
  return `^\\s*(${zero}|${num}\\s*(${units}))\\s*$`;
}

/**
 * JSON Schema (draft 2020-12) of `schema`, for editors: every `doc` becomes `description`,
 * quantities become `oneOf [number, string with a unit pattern]` (the number only where a bare
 * number is accepted, else only 0), defaults are included (quantities written with units), lazy
 * schemas become `$defs` entries.
 */
export function toJsonSchema(schema: Schema, opts: { title?: string; id?: string } = {}): object {
  const defs: Record<string, Json> = {};
  const body = toJson(schema, defs);
  const out: Json = { $schema: "https://json-schema.org/draft/2020-12/schema" };
  if (opts.id !== undefined) out.$id = opts.id;
  if (opts.title !== undefined) out.title = opts.title;
  Object.assign(out, body);
  if (Object.keys(defs).length > 0) out.$defs = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));
  return out;
}

function withDoc(json: Json, doc: string | undefined): Json {
  return doc === undefined ? json : { description: doc, ...json };
}

function toJson(schema: Schema, defs: Record<string, Json>): Json {
  switch (schema.kind) {
    case "object": {
      const properties: Json = {};
      for (const [k, f] of Object.entries(schema.fields)) properties[k] = toJson(f, defs);
      const json: Json = { type: "object", properties };
      if (schema.required.length > 0) json.required = [...schema.required];
      json.additionalProperties = schema.additional ? toJson(schema.additional, defs) : false;
      return withDoc(json, schema.doc);
    }
    case "string":
      return withDoc({ type: "string", ...(schema.pattern !== undefined ? { pattern: schema.pattern } : {}) }, schema.doc);
    case "number": {
      const json: Json = { type: schema.integer ? "integer" : "number" };
      if (schema.min !== undefined) json.minimum = schema.min;
      if (schema.max !== undefined) json.maximum = schema.max;
      return withDoc(json, schema.doc);
    }
    case "boolean":
      return withDoc({ type: "boolean" }, schema.doc);
    case "quantity": {
      const negative = schema.min !== undefined && schema.min < 0;
      const num: Json = acceptsBareNumber(schema.dimension) ? { type: "number" } : { const: 0 };
      if (num.type === "number") {
        const min = schema.min ?? (negative ? undefined : 0);
        if (min !== undefined) num.minimum = min;
        if (schema.max !== undefined) num.maximum = schema.max;
      }
      const text = `${describeDimension(schema.dimension)}${schema.min !== undefined ? `, at least ${formatQuantity(schema.min, schema.dimension)}` : ""}${schema.max !== undefined ? `, at most ${formatQuantity(schema.max, schema.dimension)}` : ""}`;
      return {
        description: schema.doc ? `${schema.doc} (${text})` : text,
        oneOf: [num, { type: "string", pattern: quantityPattern(schema.dimension, negative) }],
      };
    }
    case "enum":
      return withDoc({ enum: [...schema.values] }, schema.doc);
    case "literal":
      return withDoc({ const: schema.value }, schema.doc);
    case "array": {
      const json: Json = { type: "array", items: toJson(schema.item, defs) };
      if (schema.minItems !== undefined) json.minItems = schema.minItems;
      if (schema.maxItems !== undefined) json.maxItems = schema.maxItems;
      return withDoc(json, schema.doc);
    }
    case "record": {
      const json: Json = { type: "object", additionalProperties: toJson(schema.value, defs) };
      if (schema.keyPattern !== undefined) json.propertyNames = { pattern: schema.keyPattern };
      return withDoc(json, schema.doc);
    }
    case "expression":
      return { description: schema.doc ? `${schema.doc} (a mathjs expression)` : "a mathjs expression", type: ["string", "number"] };
    case "union":
      return withDoc({ [schema.discriminator !== undefined ? "oneOf" : "anyOf"]: schema.options.map((o) => toJson(o, defs)) }, schema.doc);
    case "optional": {
      const json = { ...toJson(schema.schema, defs) };
      if (schema.defaultValue !== undefined) json.default = jsonDefault(schema.schema, schema.defaultValue);
      return json;
    }
    case "any":
      return withDoc({}, schema.doc);
    case "lazy": {
      if (!(schema.name in defs)) {
        defs[schema.name] = {}; // placeholder first: a recursive schema refers to itself
        defs[schema.name] = toJson(schema.resolve(), defs);
      }
      return withDoc({ $ref: `#/$defs/${schema.name}` }, schema.doc);
    }
    case "refine":
      return toJson(schema.schema, defs);
  }
}

/** A default as a scenario file would write it (quantities with units, recursively). */
function jsonDefault(schema: Schema, value: unknown): unknown {
  switch (schema.kind) {
    case "quantity":
      return typeof value === "number" && !acceptsBareNumber(schema.dimension) ? formatQuantity(value, schema.dimension) : value;
    case "object": {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const f = schema.fields[k] ?? schema.additional;
        out[k] = f ? jsonDefault(f, v) : v;
      }
      return out;
    }
    case "optional":
    case "refine":
      return jsonDefault(schema.schema, value);
    case "lazy":
      return jsonDefault(schema.resolve(), value);
    case "array":
      return Array.isArray(value) ? value.map((v) => jsonDefault(schema.item, v)) : value;
    case "record":
      return isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonDefault(schema.value, v)])) : value;
    default:
      return value;
  }
}
