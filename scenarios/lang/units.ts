/**
 * Quantities with units in scenario files: `512KiB`, `2.8GHz`, `30us`, `100MB/s`, `122W`, `25%`.
 * {@link parseQuantity} converts them to the base units of {@link Dimension} (bytes, microseconds,
 * hertz, bytes per second, watts) and rejects ambiguous or wrong-dimension units with a message
 * that says what was expected; {@link formatQuantity} renders base-unit values for humans.
 *
 * @packageDocumentation
 */
import type { Dimension } from "../../engine/params.js";

/**
 * A value that is not a valid quantity of the expected dimension (an input error: exit code 2).
 * `detail` is the message without the `where` prefix, for callers that locate errors themselves.
 */
export class QuantityError extends Error {
  readonly isInputError = true;
  constructor(
    readonly detail: string,
    readonly where?: string,
  ) {
    super(where ? `${where}: ${detail}` : detail);
    this.name = "QuantityError";
  }
}

/** Options of {@link parseQuantity}. */
export interface QuantityOptions {
  /** Accept negative values (default false). */
  readonly allowNegative?: boolean;
  /**
   * A value the quantity plausibly has, in base units (the preset's value of the key it sets):
   * the unit suggested for a number without one brings the number nearest to it. Default: a
   * typical value of the dimension (1 GHz, 1 us, 1 GB/s, 100 W).
   */
  readonly typical?: number;
  /** Refuse decimal size prefixes (`KB`, `MB`), naming the binary unit (see `ParamDoc.binaryUnits`). */
  readonly binaryUnits?: boolean;
}

/** The binary size unit of each decimal one, for {@link QuantityOptions.binaryUnits}. */
const BINARY_OF: Readonly<Record<string, string>> = { kB: "KiB", KB: "KiB", MB: "MiB", GB: "GiB", TB: "TiB", kb: "KiB", Kb: "KiB", Mb: "MiB", Gb: "GiB" };

/** Unit spelling -> factor to the base unit, per dimension. Spellings are case-sensitive. */
const UNITS: Readonly<Record<Dimension, Readonly<Record<string, number>>>> = {
  bytes: {
    B: 1,
    kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12,
    KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4,
  },
  time: { ns: 1e-3, us: 1, "µs": 1, "μs": 1, ms: 1e3, s: 1e6, min: 60e6, h: 3600e6 },
  frequency: { Hz: 1, kHz: 1e3, MHz: 1e6, GHz: 1e9 },
  bandwidth: {
    "B/s": 1,
    "kB/s": 1e3, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12,
    "KiB/s": 1024, "MiB/s": 1024 ** 2, "GiB/s": 1024 ** 3,
    "bit/s": 1 / 8, "kbit/s": 1e3 / 8, "Mbit/s": 1e6 / 8, "Gbit/s": 1e9 / 8,
    bps: 1 / 8, kbps: 1e3 / 8, Mbps: 1e6 / 8, Gbps: 1e9 / 8,
  },
  power: { mW: 1e-3, W: 1, kW: 1e3 },
  count: {},
  ratio: { "%": 0.01 },
};

/** How each dimension is described in messages, with examples that parse. */
const EXPECTED: Readonly<Record<Dimension, string>> = {
  bytes: "a size such as 512KiB or 64B",
  time: "a duration such as 30us or 1.5ms",
  frequency: "a frequency such as 2.8GHz or 700MHz",
  bandwidth: "a bandwidth such as 100MB/s or 1Gbit/s",
  power: "a power such as 122W or 500mW",
  count: "a count such as 1000",
  ratio: "a ratio such as 0.25 or 25%",
};

/** Dimensions where a number without unit is meaningful (bytes: a number of bytes). */
const BARE_OK: ReadonlySet<Dimension> = new Set<Dimension>(["bytes", "count", "ratio"]);

/** Unit spellings that are ambiguous or a common slip, with the advice to give. */
const HINTS: Readonly<Record<Dimension, Readonly<Record<string, string>>>> = {
  bytes: {
    K: "ambiguous: use KiB or KB", k: "ambiguous: use KiB or KB", M: "ambiguous: use MiB or MB",
    m: "ambiguous: use MiB or MB", G: "ambiguous: use GiB or GB", g: "ambiguous: use GiB or GB",
    T: "ambiguous: use TiB or TB", Ki: "use KiB", Mi: "use MiB", Gi: "use GiB",
    kb: "ambiguous: use KiB or KB (b means bits)", Kb: "b means bits: use KB or KiB for bytes",
    Mb: "b means bits: use MB or MiB for bytes", Gb: "b means bits: use GB or GiB for bytes",
    kiB: "use KiB", b: "b means bits: use B for bytes",
  },
  time: { u: "ambiguous: use us", m: "ambiguous: use ms or min", n: "ambiguous: use ns", sec: "use s", msec: "use ms", usec: "use us", nsec: "use ns" },
  frequency: { G: "ambiguous: use GHz", g: "ambiguous: use GHz", M: "ambiguous: use MHz", K: "ambiguous: use kHz", k: "ambiguous: use kHz", KHz: "use kHz", hz: "use Hz" },
  bandwidth: {
    "K/s": "ambiguous: use KB/s or KiB/s", "M/s": "ambiguous: use MB/s or MiB/s", "G/s": "ambiguous: use GB/s or GiB/s",
    "Mb/s": "ambiguous: use Mbit/s or MB/s", "Gb/s": "ambiguous: use Gbit/s or GB/s", "kb/s": "ambiguous: use kbit/s or KB/s",
    MBps: "ambiguous: use MB/s or Mbps", GBps: "ambiguous: use GB/s or Gbps",
  },
  power: { w: "use W", mw: "use mW", kw: "use kW", KW: "use kW" },
  count: {},
  ratio: {},
};

const NUMBER_WITH_UNIT = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(\S.*?)?\s*$/;

/**
 * Converts a scenario value to base units of `dimension` (bytes, microseconds, hertz,
 * bytes/second, watts; counts and ratios unchanged, `%` divides by 100).
 *
 * Numbers are taken as base units, but only where that is unambiguous: for `bytes`, `count` and
 * `ratio` (and the value 0 of any dimension). For `time`, `frequency`, `bandwidth` and `power` a
 * number without a unit is rejected: write `30us`, not `30`. Sizes must come to a whole number of
 * bytes. Negative values are rejected unless `opts.allowNegative`.
 *
 * @param value - a number or a string such as `"512KiB"`, `"2.8 GHz"`, `"25%"`
 * @param where - prefix of the error message (for example a file and key)
 * @throws QuantityError (an input error) saying what was expected and what was found
 */
export function parseQuantity(value: unknown, dimension: Dimension, where?: string, opts: QuantityOptions = {}): number {
  const fail = (why?: string): never => {
    throw new QuantityError(`expected ${EXPECTED[dimension]}, got ${describe(value)}${why ? ` (${why})` : ""}`, where);
  };
  let n: number;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail("not a finite number");
    // A negative number is refused as one: adding a unit would not make it a value.
    if (value < 0 && !opts.allowNegative) fail("must not be negative");
    if (value !== 0 && !BARE_OK.has(dimension)) fail(`a number without unit is ambiguous: add one, for example ${example(dimension, value, opts.typical)}`);
    n = value;
  } else if (typeof value === "string") {
    const m = NUMBER_WITH_UNIT.exec(value.trim());
    if (m === null) fail(value.trim() === "" ? "empty" : "not a number with a unit");
    const magnitude = Number(m![1]);
    const unit = m![2];
    if (unit === undefined) {
      if (magnitude < 0 && !opts.allowNegative) fail("must not be negative");
      if (magnitude !== 0 && !BARE_OK.has(dimension)) fail(`a number without unit is ambiguous: add one, for example ${example(dimension, magnitude, opts.typical)}`);
      n = magnitude;
    } else {
      const binary = dimension === "bytes" && opts.binaryUnits ? BINARY_OF[unit] : undefined;
      if (binary !== undefined)
        fail(unit.endsWith("b") ? `${unit} means bits: did you mean ${m![1]}${binary}? (this size counts bytes, in powers of two)` : `${unit} is ${UNITS.bytes[unit]} bytes, and this size counts in powers of two: write ${m![1]}${binary}`);
      const factor = UNITS[dimension][unit];
      if (factor === undefined) fail(unitProblem(unit, dimension));
      n = magnitude * factor!;
    }
  } else {
    return fail();
  }
  if (!Number.isFinite(n)) fail("out of range");
  if (n < 0 && !opts.allowNegative) fail("must not be negative");
  if (dimension === "bytes" && !Number.isInteger(n)) {
    // Unit factors such as 1.1 * 1000 carry binary rounding error; snap values within 1e-9 relative of a whole byte.
    const r = Math.round(n);
    if (Math.abs(n - r) <= 1e-9 * Math.max(1, Math.abs(r))) n = r;
    else fail("not a whole number of bytes");
  }
  return n === 0 ? 0 : n;
}

/** Why `unit` is not a unit of `dimension`: an ambiguity hint, a spelling suggestion or the right dimension. */
function unitProblem(unit: string, dimension: Dimension): string {
  const hint = HINTS[dimension][unit];
  if (hint !== undefined) return hint;
  const spellings = Object.keys(UNITS[dimension]);
  const sameLetters = spellings.find((u) => u.toLowerCase() === unit.toLowerCase());
  if (sameLetters !== undefined) return `unit '${unit}': did you mean '${sameLetters}'?`;
  for (const other of Object.keys(UNITS) as Dimension[]) {
    if (other !== dimension && UNITS[other][unit] !== undefined) return `'${unit}' is a unit of ${NOUN[other]}, not of ${NOUN[dimension]}`;
  }
  if (spellings.length === 0) return `${NOUN[dimension]} takes no unit`;
  return `unknown unit '${unit}'; use one of ${spellings.filter((u) => u !== "μs").join(", ")}`;
}

const NOUN: Readonly<Record<Dimension, string>> = {
  bytes: "size", time: "time", frequency: "frequency", bandwidth: "bandwidth", power: "power", count: "count", ratio: "ratio",
};

/** Typical values per dimension, in base units, for suggesting a unit (see {@link example}). */
const TYPICAL: Readonly<Partial<Record<Dimension, number>>> = { time: 1, frequency: 1e9, bandwidth: 1e9, power: 100 };

/**
 * `magnitude` with the unit that makes it nearest (by ratio) to `typical`: 1.5 -> 1.5GHz and 2800
 * -> 2800MHz for a clock, 150 -> 150ns for a memory latency of about 0.1 us, 900 -> 900MB/s.
 */
function example(dimension: Dimension, magnitude: number, typical = TYPICAL[dimension]): string {
  const units = DISPLAY[dimension].filter(([n]) => !n.includes("iB"));
  if (units.length === 0 || typical === undefined || !(typical > 0) || magnitude === 0) return `${magnitude}${units[units.length - 1]?.[0] ?? ""}`;
  const distance = (f: number) => Math.abs(Math.log(Math.abs(magnitude) * f) - Math.log(typical));
  const best = units.reduce((a, b) => (distance(b[1]) < distance(a[1]) ? b : a));
  return `${magnitude}${best[0]}`;
}

function describe(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return String(v);
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  return `${String(v)} (${typeof v})`;
}

/** Display units per dimension, largest first; `exact` units are preferred when they divide the value. */
const DISPLAY: Readonly<Record<Dimension, readonly (readonly [string, number])[]>> = {
  bytes: [["TiB", 1024 ** 4], ["GiB", 1024 ** 3], ["MiB", 1024 ** 2], ["KiB", 1024], ["TB", 1e12], ["GB", 1e9], ["MB", 1e6], ["KB", 1e3], ["B", 1]],
  time: [["s", 1e6], ["ms", 1e3], ["us", 1], ["ns", 1e-3]],
  frequency: [["GHz", 1e9], ["MHz", 1e6], ["kHz", 1e3], ["Hz", 1]],
  bandwidth: [["GB/s", 1e9], ["MB/s", 1e6], ["KB/s", 1e3], ["GiB/s", 1024 ** 3], ["MiB/s", 1024 ** 2], ["KiB/s", 1024], ["B/s", 1]],
  power: [["kW", 1e3], ["W", 1], ["mW", 1e-3]],
  count: [],
  ratio: [],
};

/**
 * Renders a base-unit value with the most readable unit (`524288` bytes -> `512KiB`, `1500` us ->
 * `1.5ms`, `2.8e9` Hz -> `2.8GHz`). The result parses back with {@link parseQuantity} to the same
 * value (up to 12 significant digits). Counts and ratios print as plain numbers.
 */
export function formatQuantity(value: number, dimension: Dimension): string {
  if (!Number.isFinite(value)) return String(value);
  const units = DISPLAY[dimension];
  if (units.length === 0) return trim(value);
  const abs = Math.abs(value);
  if (abs === 0) return `0${units[units.length - 1][0]}`;
  const binary = units.filter(([n]) => n.includes("iB"));
  const decimal = units.filter(([n]) => !n.includes("iB"));
  // Sizes read best in binary units (cache sizes), rates in decimal ones; either only when the number stays short.
  const families = dimension === "bytes" ? [binary, decimal] : [decimal, binary];
  for (const family of families) {
    // why: below a family's smallest unit (128 bytes < 1KiB) the other family reads better (128B, not 0.125KiB)
    const fit = family.find(([, f]) => abs >= f);
    if (fit !== undefined && isShort(abs / fit[1])) return `${trim(value / fit[1])}${fit[0]}`;
  }
  const [name, f] = decimal.find(([, f]) => abs >= f) ?? decimal[decimal.length - 1];
  return `${trim(value / f)}${name}`;
}

/**
 * A byte count in the binary unit that keeps it at least 1 (`14.4e9` -> `13.41GiB`), rounded to
 * two decimals (whole bytes below 1KiB): for sizes compared in one message, which mixed
 * binary and decimal units would hide (`14.4GB` against `1GiB`).
 */
export function formatBinaryBytes(value: number): string {
  const units = DISPLAY.bytes.filter(([n]) => n.includes("iB"));
  // The unit is chosen by the value as rounded: 1073741823 bytes is 1GiB, not 1024MiB.
  for (const [name, f] of units) {
    const shown = Number((value / f).toFixed(2));
    if (Math.abs(shown) >= 1) return `${shown}${name}`;
  }
  return `${Math.round(value)}B`;
}

/** True when `x` needs at most three decimals. */
function isShort(x: number): boolean {
  return Math.abs(x * 1000 - Math.round(x * 1000)) < 1e-6 * Math.max(1, x);
}

/** A number with at most 12 significant digits and no trailing zeros. */
function trim(v: number): string {
  const s = Number(v.toPrecision(12));
  return String(s);
}

/**
 * The unit spellings accepted for `dimension` (for help text and JSON Schema patterns); with
 * `binaryUnits`, those of a size that counts in powers of two (no `KB`, `MB`: see
 * {@link QuantityOptions.binaryUnits}).
 */
export function unitsOf(dimension: Dimension, binaryUnits = false): string[] {
  const units = Object.keys(UNITS[dimension]);
  return binaryUnits && dimension === "bytes" ? units.filter((u) => BINARY_OF[u] === undefined) : units;
}

/** The spelling of `dimension`'s base unit, the one whose factor is 1 (`B`, `us`, `Hz`, `B/s`, `W`); "" for counts and ratios. */
export function baseUnitOf(dimension: Dimension): string {
  return Object.entries(UNITS[dimension]).find(([, factor]) => factor === 1)?.[0] ?? "";
}

/** True when a number without unit is accepted for `dimension` (bytes, count, ratio). */
export function acceptsBareNumber(dimension: Dimension): boolean {
  return BARE_OK.has(dimension);
}

/** The phrase used in messages for `dimension`, for example `a duration such as 30us or 1.5ms`. */
export function describeDimension(dimension: Dimension): string {
  return EXPECTED[dimension];
}
