/**
 * Validation of located values against a {@link Schema}: every error collected, each located, values
 * converted (quantities to base units, expressions to text, defaults filled).
 *
 * @packageDocumentation
 */
import { nearestName } from "../../engine/registry.js";
import { ExpressionError, checkExpressionSyntax, expressionReferences, isExpressionConstant } from "./expression.js";
import { describeSchema, type ExpressionSchema, type ObjectSchema, type Schema, type UnionSchema } from "./schema.js";
import { ScenarioError, ScenarioErrors, type KeyPath, type SourceDoc, type SourcePosition } from "./source.js";
import { locateNearest } from "../../profile/index.js";
import { QuantityError, formatQuantity, parseQuantity } from "./units.js";

interface Ctx {
  readonly file: string;
  readonly locate?: SourceDoc["locate"];
  readonly locateValue?: SourceDoc["locateValue"];
  readonly text?: string;
  readonly errors: Reported[];
}

type At = "key" | "value" | "parent";

/**
 * A problem found, not yet located. Why not a {@link ScenarioError} at once: a union tries every
 * option and keeps the errors of one at most, and locating and making an error (with its stack
 * trace) for each option's problems was most of the time a program scenario took to validate.
 */
interface Reported {
  readonly path: KeyPath;
  readonly detail: string;
  readonly at: At;
  readonly columnShift: number | undefined;
}

function report(ctx: Ctx, path: KeyPath, detail: string, at: At, columnShift?: number): void {
  ctx.errors.push({ path, detail, at, columnShift });
}

/** The located error of `r` (every context of a validation locates alike: a union's options share the document). */
function located(ctx: Ctx, r: Reported): ScenarioError {
  const { path, at, columnShift } = r;
  // The value, the key, or the enclosing entry ("parent"), else the nearest entry around it.
  const locate = ctx.locate;
  let pos: SourcePosition | undefined = at === "value" ? ctx.locateValue?.(path) : undefined;
  if (pos === undefined && locate !== undefined && (at !== "parent" || path.length > 0)) pos = locateNearest({ locate }, at === "parent" ? path.slice(0, -1) : path, "key");
  if (pos && columnShift !== undefined) pos = { line: pos.line, column: pos.column + columnShift };
  return new ScenarioError(r.detail, { file: ctx.file, line: pos?.line, column: pos?.column, path });
}

/** True for a map (a plain object, not null or an array), as YAML and JSON give them. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function describeValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null) return "null (an empty value)";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return "a list";
  return "a map";
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
    case "any": {
      // Free values are passed on as they are: their maps are checked here, all at once.
      const reserved = reservedKeyPaths(value, path);
      for (const at of reserved) report(ctx, at, RESERVED_KEY, "key");
      return reserved.length > 0 ? NO_VALUE : value;
    }
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
      if (schema.integer && !Number.isSafeInteger(value)) {
        // Beyond 2^53 a number keeps no more than about 16 digits: the value read is not the one
        // written (12345678901234567891 reads as 12345678901234567000), and neighbours read alike.
        report(ctx, path, `expected an integer, got ${describeValue(value)}, which is beyond ±${Number.MAX_SAFE_INTEGER} (2^53 - 1), where a number no longer holds every integer: the digits written are not the ones read`, "value");
        return NO_VALUE;
      }
      return bounds(value, schema.min, schema.max, String, path, ctx) ? value : NO_VALUE;
    }
    case "quantity": {
      let v: number;
      try {
        v = parseQuantity(value, schema.dimension, undefined, { allowNegative: schema.min !== undefined && schema.min < 0, binaryUnits: schema.binaryUnits === true });
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
      if (schema.uniqueItems) {
        value.forEach((item, i) => {
          const first = value.findIndex((x) => JSON.stringify(x) === JSON.stringify(item));
          if (first < i) {
            report(ctx, [...path, i], `${describeValue(item)} is listed twice (first at [${first}])`, "value");
            ok = false;
          }
        });
      }
      return ok && !out.includes(NO_VALUE) ? out : NO_VALUE;
    }
    case "record": {
      if (!isPlainObject(value)) return typeError();
      const out: Record<string, unknown> = {};
      let ok = true;
      const re = schema.keyPattern !== undefined ? new RegExp(schema.keyPattern, "u") : undefined;
      for (const [k, v] of Object.entries(value)) {
        if (k === "__proto__") {
          report(ctx, [...path, k], RESERVED_KEY, "key");
          ok = false;
          continue;
        }
        if (re && !re.test(k)) {
          report(ctx, [...path, k], schema.keyRule !== undefined ? `key '${k}' is not ${schema.keyRule}` : `key '${k}' does not match /${schema.keyPattern}/`, "key");
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

/**
 * The error of a `__proto__` key. Why refused: assigned into a plain object, as validation and
 * every component's parameters do, the entry would set no key and vanish without a word, whether
 * it came from a file, a `--set` or code.
 */
const RESERVED_KEY = "'__proto__' is reserved and cannot be a key";

/** Paths of every `__proto__` key in `value`'s maps, below `path` (a free value's, see `any`). */
function reservedKeyPaths(value: unknown, path: KeyPath): KeyPath[] {
  const found: KeyPath[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, at: KeyPath): void => {
    if (typeof v !== "object" || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, i]));
    else
      for (const key of Object.keys(v)) {
        if (key === "__proto__") found.push([...at, key]);
        else walk((v as Record<string, unknown>)[key], [...at, key]);
      }
  };
  walk(value, path);
  return found;
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
  // An explicit `undefined` (from code, never from YAML) counts as absent.
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(value, k) && value[k] !== undefined;
  const declared = Object.keys(schema.fields);
  // A misspelt key explains the missing key it was meant to be: report it once, as unknown.
  const explained = new Set<string>();
  if (!schema.additional) {
    for (const key of Object.keys(value)) {
      if (key === "__proto__") continue;
      const near = has(key) && !Object.prototype.hasOwnProperty.call(schema.fields, key) ? suggestKey(schema, key, declared) : undefined;
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
    if (key === "__proto__") {
      report(ctx, [...path, key], RESERVED_KEY, "key");
      ok = false;
      continue;
    }
    if (schema.additional) {
      const c = check(schema.additional, value[key], [...path, key], ctx);
      if (c === NO_VALUE) ok = false;
      else out[key] = c;
      continue;
    }
    const near = suggestKey(schema, key, declared);
    const hint = near ? ` (did you mean '${near}'?)` : declared.length > 0 ? `; allowed keys: ${declared.join(", ")}` : "; no keys are allowed here";
    report(ctx, [...path, key], `unknown key '${key}'${hint}`, "key");
    ok = false;
  }
  return ok ? out : NO_VALUE;
}

/** The declared key an undeclared `key` most likely means: the one it is {@link ObjectSchema.meant} for, else the nearest spelt. */
function suggestKey(schema: ObjectSchema, key: string, declared: readonly string[]): string | undefined {
  const meant = schema.meant !== undefined && Object.hasOwn(schema.meant, key) ? schema.meant[key] : undefined;
  return meant !== undefined && declared.includes(meant) ? meant : nearestName(key, declared);
}

/** The fields of an object option (none for another kind of schema). */
function objectFields(option: Schema): Readonly<Record<string, Schema>> {
  let o = option;
  while (o.kind === "lazy" || o.kind === "refine" || o.kind === "optional") o = o.kind === "lazy" ? o.resolve() : o.schema;
  return o.kind === "object" ? o.fields : {};
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
  if (schema.exclusive !== undefined && isPlainObject(value)) {
    const present = schema.exclusive.keys.filter((k) => Object.prototype.hasOwnProperty.call(value, k));
    if (present.length > 1) {
      report(ctx, path, `${schema.exclusive.what} has one kind, this one has ${present.length}: ${present.map((k) => `'${k}'`).join(", ")} (keep one, or split it into ${present.length} elements)`, "value");
      return NO_VALUE;
    }
  }
  const attempts = schema.options.map((o) => {
    const sub: Ctx = { ...ctx, errors: [] };
    return { o, v: check(o, value, path, sub), errors: sub.errors };
  });
  const good = attempts.find((a) => a.errors.length === 0 && a.v !== NO_VALUE);
  if (good) return good.v;
  if (schema.exclusive !== undefined && isPlainObject(value)) {
    // No key names a kind: the unknown key (the first whose value is a name, as a kind's is) is
    // the kind meant; the errors of the option nearest in shape would be about other keys.
    const { keys, what } = schema.exclusive;
    const known = new Set(schema.options.flatMap((o) => Object.keys(objectFields(o))));
    const unknown = Object.keys(value).filter((k) => !known.has(k));
    const kind = unknown.find((k) => typeof value[k] === "string") ?? unknown[0];
    const kinds = [...keys, ...(schema.exclusive.alsoKinds ?? [])];
    if (kind !== undefined && !kinds.some((k) => Object.prototype.hasOwnProperty.call(value, k))) {
      const near = nearestName(kind, keys);
      report(ctx, [...path, kind], `unknown key '${kind}'${near ? ` (did you mean '${near}'?)` : ""}: ${what} needs a key that names its kind (${keys.join(", ")})`, "key");
      return NO_VALUE;
    }
  }
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
  if (ctx.errors.length > 0 || out === NO_VALUE) throw new ScenarioErrors(ctx.errors.map((r) => located(ctx, r)), ctx.file || undefined);
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

