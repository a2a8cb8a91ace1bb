/**
 * Self-documenting parameters. Every extension point of ccasim (a machine preset, a network model,
 * a collective algorithm, a component type, a fit model family, a power model) declares its
 * parameters with {@link ParamDoc}s; the same documentation drives scenario validation, `--help`
 * text and error messages. Values reach the code already converted to base units.
 *
 * @packageDocumentation
 */

/**
 * The physical dimension of a quantity parameter and the base unit its value is stored in:
 * - `bytes`: bytes (scenario text accepts `512KiB`, `9MiB`, `64B`, `1GB` ...)
 * - `time`: microseconds (accepts `30us`, `1.5ms`, `2s`, `100ns`)
 * - `frequency`: hertz (accepts `2.8GHz`, `700MHz`)
 * - `bandwidth`: bytes per second (accepts `100MB/s`, `3.2GB/s`, `1Gbit/s`)
 * - `power`: watts (accepts `122W`)
 * - `count`: a plain count (events, elements, cycles)
 * - `ratio`: a dimensionless fraction or factor
 */
export type Dimension = "bytes" | "time" | "frequency" | "bandwidth" | "power" | "count" | "ratio";

/**
 * What a value holds: a parameter's type and constraints without its name, default or
 * optionality. Each item of a `list` parameter is one ({@link ParamDoc.items}), as is each value
 * of a `map` whose keys are names ({@link ParamDoc.entries}).
 */
export interface ParamValueDoc {
  /**
   * Value type. `quantity` values carry a {@link Dimension}; `expression` values are mathjs
   * expressions (text or a number); `list` and `map` values are structured (YAML sequences and
   * mappings): `items`, `fields` or `entries` say what they hold, else `doc` does.
   */
  readonly type: "quantity" | "integer" | "number" | "boolean" | "string" | "enum" | "expression" | "list" | "map";
  /** Dimension of a quantity (required for `type: "quantity"`). */
  readonly dimension?: Dimension;
  /**
   * A size that hardware counts in powers of two (a cache's capacity, line, page): a decimal
   * prefix (`512KB`, 512000 bytes) is refused with the binary one (`512KiB`) to write instead.
   */
  readonly binaryUnits?: boolean;
  /** What it means; for an item or an entry, optional (the parameter's `doc` says it). */
  readonly doc?: string;
  /** Inclusive lower bound (base units). */
  readonly min?: number;
  /** Inclusive upper bound (base units). */
  readonly max?: number;
  /** Allowed values of an `enum`. */
  readonly values?: readonly string[];
  /**
   * The regular expression (ECMAScript source, read with the `u` flag) a `string` matches; it is
   * searched for anywhere in the value unless it is anchored by its own `^...$`.
   */
  readonly pattern?: string;
  /** What each item of a `list` holds; absent: items of any kind (its `doc` says which). */
  readonly items?: ParamValueDoc;
  /** Fewest items of a `list`. */
  readonly minItems?: number;
  /** Most items of a `list`. */
  readonly maxItems?: number;
  /**
   * The keys of a `map` of known shape, each documented as a parameter (required unless it has a
   * default or is optional); no other key is accepted.
   */
  readonly fields?: readonly ParamDoc[];
  /** What each value of a `map` whose keys are names (any key) holds; ignored with `fields`. */
  readonly entries?: ParamValueDoc;
}

/** Documentation and constraints of one parameter. */
export interface ParamDoc extends ParamValueDoc {
  /** Key, relative to its owner (dotted for nested keys, for example `l2.size`). */
  readonly name: string;
  /** One or two sentences: what it means, and where the default comes from. */
  readonly doc: string;
  /** Default value, in base units; absent means the parameter is required unless `optional`. */
  readonly default?: unknown;
  /** True when the parameter may be left out without a default. */
  readonly optional?: boolean;
}

/** Renders parameter docs as aligned help text, one parameter per line. */
export function formatParams(params: readonly ParamDoc[], indent = "  "): string {
  const width = Math.max(4, ...params.map((p) => p.name.length));
  return params
    .map((p) => {
      const type = p.type === "quantity" ? `${p.dimension}` : p.type === "enum" ? (p.values ?? []).join("|") : p.type;
      const def = p.default !== undefined ? ` (default ${JSON.stringify(p.default)})` : p.optional ? " (optional)" : " (required)";
      return `${indent}${p.name.padEnd(width)}  <${type}>  ${p.doc}${def}`;
    })
    .join("\n");
}
