import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Dimension } from "../../../engine/params.js";
import { QuantityError, formatQuantity, parseQuantity } from "../../../scenarios/lang/units.js";

const accepted: readonly [unknown, Dimension, number][] = [
  ["512KiB", "bytes", 524288],
  ["512 KiB", "bytes", 524288],
  ["9MiB", "bytes", 9 * 1024 * 1024],
  ["1GiB", "bytes", 1024 ** 3],
  ["64B", "bytes", 64],
  ["1KB", "bytes", 1000],
  ["1kB", "bytes", 1000],
  ["1.1KB", "bytes", 1100],
  ["2MB", "bytes", 2e6],
  ["3GB", "bytes", 3e9],
  ["1.5KiB", "bytes", 1536],
  [4096, "bytes", 4096],
  ["4096", "bytes", 4096],
  ["30us", "time", 30],
  ["30µs", "time", 30],
  ["30μs", "time", 30],
  ["1.5ms", "time", 1500],
  ["2s", "time", 2e6],
  ["100ns", "time", 0.1],
  ["1min", "time", 60e6],
  [0, "time", 0],
  ["0", "time", 0],
  ["2.8GHz", "frequency", 2.8e9],
  ["700MHz", "frequency", 7e8],
  ["10kHz", "frequency", 1e4],
  ["50Hz", "frequency", 50],
  ["100MB/s", "bandwidth", 1e8],
  ["3.2GB/s", "bandwidth", 3.2e9],
  ["1KiB/s", "bandwidth", 1024],
  ["10B/s", "bandwidth", 10],
  ["1Gbit/s", "bandwidth", 1.25e8],
  ["8bit/s", "bandwidth", 1],
  ["100Mbps", "bandwidth", 1.25e7],
  ["10Gbps", "bandwidth", 1.25e9],
  ["122W", "power", 122],
  ["500mW", "power", 0.5],
  ["1.2kW", "power", 1200],
  [1000, "count", 1000],
  ["1e6", "count", 1e6],
  [0.25, "ratio", 0.25],
  ["25%", "ratio", 0.25],
  ["+3us", "time", 3],
  [" 2e3 B ", "bytes", 2000],
];

const rejected: readonly [unknown, Dimension, string][] = [
  ["512K", "bytes", 'expected a size such as 512KiB or 64B, got "512K" (ambiguous: use KiB or KB)'],
  ["512k", "bytes", 'expected a size such as 512KiB or 64B, got "512k" (ambiguous: use KiB or KB)'],
  ["8Mb", "bytes", 'expected a size such as 512KiB or 64B, got "8Mb" (b means bits: use MB or MiB for bytes)'],
  ["1.5B", "bytes", 'expected a size such as 512KiB or 64B, got "1.5B" (not a whole number of bytes)'],
  ["-4KiB", "bytes", 'expected a size such as 512KiB or 64B, got "-4KiB" (must not be negative)'],
  [-4, "bytes", "expected a size such as 512KiB or 64B, got -4 (must not be negative)"],
  ["2.8G", "frequency", 'expected a frequency such as 2.8GHz or 700MHz, got "2.8G" (ambiguous: use GHz)'],
  ["2.8ghz", "frequency", "expected a frequency such as 2.8GHz or 700MHz, got \"2.8ghz\" (unit 'ghz': did you mean 'GHz'?)"],
  [2.8e9, "frequency", "expected a frequency such as 2.8GHz or 700MHz, got 2800000000 (a number without unit is ambiguous: add one, for example 2800000000Hz)"],
  ["30", "time", 'expected a duration such as 30us or 1.5ms, got "30" (a number without unit is ambiguous: add one, for example 30us)'],
  [30, "time", "expected a duration such as 30us or 1.5ms, got 30 (a number without unit is ambiguous: add one, for example 30us)"],
  ["3MHz", "time", "expected a duration such as 30us or 1.5ms, got \"3MHz\" ('MHz' is a unit of frequency, not of time)"],
  ["30 sec", "time", 'expected a duration such as 30us or 1.5ms, got "30 sec" (use s)'],
  ["30parsecs", "time", "expected a duration such as 30us or 1.5ms, got \"30parsecs\" (unknown unit 'parsecs'; use one of ns, us, µs, ms, s, min, h)"],
  ["-4us", "time", 'expected a duration such as 30us or 1.5ms, got "-4us" (must not be negative)'],
  // A negative number without a unit is refused as negative, not told to take a unit (-5s).
  [-5, "time", "expected a duration such as 30us or 1.5ms, got -5 (must not be negative)"],
  ["-5", "time", 'expected a duration such as 30us or 1.5ms, got "-5" (must not be negative)'],
  [Number.NaN, "time", "expected a duration such as 30us or 1.5ms, got NaN (not a finite number)"],
  ["fast", "time", 'expected a duration such as 30us or 1.5ms, got "fast" (not a number with a unit)'],
  ["", "time", 'expected a duration such as 30us or 1.5ms, got "" (empty)'],
  [true, "time", "expected a duration such as 30us or 1.5ms, got true (boolean)"],
  [null, "bytes", "expected a size such as 512KiB or 64B, got null"],
  [[1], "bytes", "expected a size such as 512KiB or 64B, got a list"],
  ["100Mb/s", "bandwidth", 'expected a bandwidth such as 100MB/s or 1Gbit/s, got "100Mb/s" (ambiguous: use Mbit/s or MB/s)'],
  ["100MB", "bandwidth", "expected a bandwidth such as 100MB/s or 1Gbit/s, got \"100MB\" ('MB' is a unit of size, not of bandwidth)"],
  ["100", "bandwidth", 'expected a bandwidth such as 100MB/s or 1Gbit/s, got "100" (a number without unit is ambiguous: add one, for example 100MB/s)'],
  [122, "power", "expected a power such as 122W or 500mW, got 122 (a number without unit is ambiguous: add one, for example 122W)"],
  ["122w", "power", 'expected a power such as 122W or 500mW, got "122w" (use W)'],
  ["5KB", "count", "expected a count such as 1000, got \"5KB\" ('KB' is a unit of size, not of count)"],
  ["-1", "count", 'expected a count such as 1000, got "-1" (must not be negative)'],
  ["5 apples", "count", "expected a count such as 1000, got \"5 apples\" (count takes no unit)"],
  ["25 percent", "ratio", "expected a ratio such as 0.25 or 25%, got \"25 percent\" (unknown unit 'percent'; use one of %)"],
  ["1e999GHz", "frequency", 'expected a frequency such as 2.8GHz or 700MHz, got "1e999GHz" (out of range)'],
];

describe("parseQuantity", () => {
  it.each(accepted)("accepts %j as %s", (value, dim, base) => {
    expect(parseQuantity(value, dim)).toBeCloseTo(base, 9);
  });

  it("gives whole bytes exactly, despite binary rounding of the unit factor", () => {
    expect(parseQuantity("1.1KB", "bytes")).toBe(1100);
    expect(Number.isInteger(parseQuantity("0.7MB", "bytes"))).toBe(true);
  });

  it.each(rejected)("rejects %j as %s with a message saying what was expected", (value, dim, message) => {
    let err: unknown;
    try {
      parseQuantity(value, dim);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QuantityError);
    expect((err as QuantityError).isInputError).toBe(true);
    expect((err as QuantityError).message).toBe(message);
  });

  it("prefixes `where` to the message and keeps the bare detail", () => {
    const err = (() => {
      try {
        parseQuantity("512K", "bytes", "machine.l2.size");
      } catch (e) {
        return e as QuantityError;
      }
      return undefined;
    })();
    expect(err?.message).toBe('machine.l2.size: expected a size such as 512KiB or 64B, got "512K" (ambiguous: use KiB or KB)');
    expect(err?.detail).toBe('expected a size such as 512KiB or 64B, got "512K" (ambiguous: use KiB or KB)');
  });

  it("accepts negative values only when allowed", () => {
    expect(parseQuantity("-3us", "time", undefined, { allowNegative: true })).toBe(-3);
  });
});

describe("formatQuantity", () => {
  it.each([
    [524288, "bytes", "512KiB"],
    [1e6, "bytes", "1MB"],
    [1500, "bytes", "1.5KB"],
    [64, "bytes", "64B"],
    [128, "bytes", "128B"],
    [512, "bytes", "512B"],
    [0, "bytes", "0B"],
    [30, "time", "30us"],
    [1500, "time", "1.5ms"],
    [2e6, "time", "2s"],
    [0.1, "time", "100ns"],
    [0, "time", "0ns"],
    [2.8e9, "frequency", "2.8GHz"],
    [1.25e8, "bandwidth", "125MB/s"],
    [1024 ** 3, "bandwidth", "1GiB/s"],
    [122, "power", "122W"],
    [0.5, "power", "500mW"],
    [1000, "count", "1000"],
    [0.25, "ratio", "0.25"],
  ] as const)("renders %d %s as %s", (value, dim, text) => {
    expect(formatQuantity(value, dim)).toBe(text);
  });

  it("renders values that parse back to themselves", () => {
    const dims: Dimension[] = ["bytes", "time", "frequency", "bandwidth", "power", "count", "ratio"];
    fc.assert(
      fc.property(fc.constantFrom(...dims), fc.double({ min: 0, max: 1e15, noNaN: true }), (dim, raw) => {
        const value = dim === "bytes" ? Math.round(raw) : raw;
        const back = parseQuantity(formatQuantity(value, dim), dim);
        expect(Math.abs(back - value)).toBeLessThanOrEqual(1e-11 * Math.max(1e-3, value));
      }),
      { seed: 6, numRuns: 500 },
    );
  });
});
