/**
 * A small schema language for scenario files. The same {@link Schema} value validates located YAML
 * (`validate.ts`: collecting every error, each naming file, line, column and key path, with the
 * nearest valid name for a misspelt key), converts values (quantities to base units, defaults
 * filled) and emits JSON Schema (`json-schema.ts`, draft 2020-12) so editors complete and check
 * scenario files. Schemas are plain data built with {@link s}, so registries can contribute parts
 * at run time.
 *
 * @packageDocumentation
 */
import type { Dimension, ParamDoc, ParamValueDoc } from "../../engine/params.js";
import type { KeyPath } from "./source.js";
import { describeDimension, parseQuantity } from "./units.js";

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
  /**
   * Undeclared keys a user writes for a declared one, by the key meant (`{ from: "to" }` for a
   * send): suggested as "did you mean", before the declared key spelt nearest.
   */
  readonly meant?: Readonly<Record<string, string>>;
}
/** A string, optionally matching a regular expression. */
export interface StringSchema extends Documented {
  readonly kind: "string";
  readonly pattern?: string;
  /** What `pattern` accepts, in words for messages (`User.usesPort -> Provider.providesPort`), instead of the expression. */
  readonly shape?: string;
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
  /** A size in powers of two: decimal units (`512KB`, 512000 bytes) are refused, naming the binary one. */
  readonly binaryUnits?: boolean;
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
  /** Whether an item may appear only once (a list of choices, where a repeat would do a thing twice). */
  readonly uniqueItems?: boolean;
}
/** A map with arbitrary keys (optionally matching a pattern) and values of one schema. */
export interface RecordSchema extends Documented {
  readonly kind: "record";
  readonly value: Schema;
  readonly keyPattern?: string;
  /** What a key matching `keyPattern` is, in words (`a variable name: letters, digits and _ ...`), for messages. */
  readonly keyRule?: string;
}
/** A mathjs expression given as text or a number; validates to the text. */
export interface ExpressionSchema extends Documented {
  readonly kind: "expression";
  /** When given, the only symbols the expression may use as values (mathjs constants such as `pi` aside). */
  readonly known?: readonly string[];
  /** Examples of what it holds, for messages (`mod(pid + 1, np)`); default cost expressions. */
  readonly example?: string;
}
/** One of several schemas; with a discriminator key, chosen by that key's value. */
export interface UnionSchema extends Documented {
  readonly kind: "union";
  readonly options: readonly Schema[];
  readonly discriminator?: string;
  /**
   * Keys each of which names one option (the element kinds of a program diagram): a map with
   * two of them is reported as such, not as the option it fits best with the others unknown.
   * `what` names such a map in the message. `alsoKinds` name an option too but may stand beside
   * another kind (`code`, a field of every element): a map with one of them alone has its kind.
   */
  readonly exclusive?: { readonly keys: readonly string[]; readonly what: string; readonly alsoKinds?: readonly string[] };
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
  object(fields: Record<string, Schema>, opts: { doc?: string; required?: readonly string[]; additional?: Schema; meant?: Readonly<Record<string, string>> } = {}): ObjectSchema {
    const required = Object.keys(fields).filter((k) => fields[k].kind !== "optional" || opts.required?.includes(k));
    for (const k of opts.required ?? []) if (!required.includes(k)) required.push(k);
    return { kind: "object", fields, required, additional: opts.additional, doc: opts.doc, ...(opts.meant ? { meant: opts.meant } : {}) };
  },
  /** A string; `pattern` is a JavaScript/ECMA regular expression source. */
  string(opts: { doc?: string; pattern?: string; shape?: string } = {}): StringSchema {
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
  quantity(dimension: Dimension, opts: { doc?: string; min?: number; max?: number; binaryUnits?: boolean } = {}): QuantitySchema {
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
  array(item: Schema, opts: { doc?: string; minItems?: number; maxItems?: number; uniqueItems?: boolean } = {}): ArraySchema {
    return { kind: "array", item, ...opts };
  },
  /** A map with arbitrary keys (matching `keyPattern`, described by `keyRule`, when given) and values of `value`. */
  record(value: Schema, opts: { doc?: string; keyPattern?: string; keyRule?: string } = {}): RecordSchema {
    return { kind: "record", value, ...opts };
  },
  /** A mathjs expression (text or number); syntax checked and located; validates to the text. */
  expression(opts: { doc?: string; known?: readonly string[]; example?: string } = {}): ExpressionSchema {
    return { kind: "expression", ...opts };
  },
  /**
   * One of `options`. With `discriminator`, the option is chosen by the value of that key (each
   * option an object whose discriminator field is a literal or an enum); otherwise the first option
   * that validates.
   */
  union(options: readonly Schema[], opts: { doc?: string; discriminator?: string; exclusive?: UnionSchema["exclusive"] } = {}): UnionSchema {
    return { kind: "union", options, ...opts };
  },
  /**
   * A field that may be left out, filled with `defaultValue` when given. Give the default in
   * converted form (base units); for a quantity a unit string such as `"30us"` is converted here.
   * @throws QuantityError when a quantity default string does not parse (a programming error)
   */
  optional(schema: Schema, defaultValue?: unknown): OptionalSchema {
    const value = schema.kind === "quantity" && typeof defaultValue === "string" ? parseQuantity(defaultValue, schema.dimension, "default", { allowNegative: true }) : defaultValue;
    return { kind: "optional", schema, defaultValue: value, doc: schema.doc };
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
      const inner = paramSchema(p, p.name);
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

/**
 * The schema of a documented value: a parameter's, or (with `name` the parameter's, `items` or
 * `entries` appended) an item's of a list or a value's of a map.
 */
function paramSchema(p: ParamValueDoc, name: string): Schema {
  const doc = p.doc;
  switch (p.type) {
    case "quantity":
      if (!p.dimension) throw new Error(`parameter '${name}': a quantity needs a dimension`);
      return s.quantity(p.dimension, { doc, min: p.min, max: p.max, ...(p.binaryUnits === true ? { binaryUnits: true } : {}) });
    case "integer":
      return s.integer({ doc, min: p.min, max: p.max });
    case "number":
      return s.number({ doc, min: p.min, max: p.max });
    case "boolean":
      return s.boolean({ doc });
    case "string":
      return s.string({ doc, ...(p.pattern !== undefined ? { pattern: p.pattern } : {}) });
    case "enum":
      return s.enumOf(p.values ?? [], { doc });
    case "expression":
      return s.expression({ doc });
    case "list":
      return s.array(p.items === undefined ? s.any() : paramSchema(p.items, `${name} items`), { doc, ...(p.minItems !== undefined ? { minItems: p.minItems } : {}), ...(p.maxItems !== undefined ? { maxItems: p.maxItems } : {}) });
    case "map":
      if (p.fields !== undefined) return fromParams(p.fields, { doc });
      return s.record(p.entries === undefined ? s.any() : paramSchema(p.entries, `${name} entries`), { doc });
  }
}

/** What a schema accepts, in words (`a map`, `a duration such as 30us or 1.5ms`, `one of 'a', 'b'`). */
export function describeSchema(schema: Schema): string {
  switch (schema.kind) {
    case "object":
    case "record":
      return "a map";
    case "string":
      return schema.shape ? `a string of the form ${schema.shape}` : schema.pattern ? `a string matching /${schema.pattern}/` : "a string";
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
      return `an expression such as ${schema.example ?? "2*x or exp(1.19*log(Q) - 3.68)"}`;
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

/**
 * The schema of what stands at `path` (map keys and list indices) inside a value of `schema`:
 * what a `--set` or a sweep's `set:` of that key must give. Undefined where no single schema
 * holds: a key the schema does not declare, or a union whose options give several (or none).
 * A refinement's check on a whole value is kept only for the value it refines (`path` empty).
 */
export function schemaAt(schema: Schema, path: KeyPath): Schema | undefined {
  switch (schema.kind) {
    case "optional":
      return schemaAt(schema.schema, path);
    case "lazy":
      return schemaAt(schema.resolve(), path);
    case "refine":
      return path.length === 0 ? schema : schemaAt(schema.schema, path);
    default:
      break;
  }
  if (path.length === 0) return schema;
  const [key, ...rest] = path;
  switch (schema.kind) {
    case "object": {
      if (typeof key !== "string") return undefined;
      const field = Object.prototype.hasOwnProperty.call(schema.fields, key) ? schema.fields[key] : schema.additional;
      return field === undefined ? undefined : schemaAt(field, rest);
    }
    case "record":
      return typeof key === "string" ? schemaAt(schema.value, rest) : undefined;
    case "array":
      return typeof key === "number" ? schemaAt(schema.item, rest) : undefined;
    case "any":
      return schema;
    case "union": {
      const found = schema.options.map((o) => schemaAt(o, path)).filter((x): x is Schema => x !== undefined);
      return found.length === 1 ? found[0] : undefined;
    }
    default:
      return undefined;
  }
}

// Validation and JSON Schema emission live in their own files; they are part of this module's face.
export { isPlainObject, validate, validateValue } from "./validate.js";
export { toJsonSchema, quantityPattern } from "./json-schema.js";
