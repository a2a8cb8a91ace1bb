/**
 * Parameter documentation and validation of {@link MachineConfig}. The same {@link ParamDoc}s
 * drive scenario validation, `--help` text and the error messages of {@link validateMachine}.
 *
 * @packageDocumentation
 */
import type { ParamDoc } from "../../engine/params.js";
import { didYouMean } from "../../engine/registry.js";
import { LEVEL_KEYS, type MachineConfig } from "./config.js";
import { MachineInputError } from "./errors.js";
import { isPowerOfTwo } from "./modular.js";

function levelParams(key: string, which: string): ParamDoc[] {
  return [
    { name: `${key}.size`, type: "quantity", dimension: "bytes", binaryUnits: true, min: 64, doc: `${which} capacity; a multiple of line x assoc.`, optional: true },
    { name: `${key}.line`, type: "quantity", dimension: "bytes", binaryUnits: true, min: 4, max: 65536, doc: `${which} line (tag) size, a power of two.`, optional: true },
    { name: `${key}.sector`, type: "quantity", dimension: "bytes", binaryUnits: true, min: 4, max: 65536, doc: `${which} sector (fill unit) size, a power of two dividing the line; default: the line.`, optional: true },
    { name: `${key}.assoc`, type: "integer", min: 1, max: 1024, doc: `${which} associativity (ways per set).`, optional: true },
    { name: `${key}.latency`, type: "number", min: 0, max: 10000, doc: `${which} load-to-use hit latency, in cycles.`, optional: true },
  ];
}

/** Every parameter of a machine, by dotted key. Levels `l1` to `l4` are optional groups. */
export const MACHINE_PARAMS: readonly ParamDoc[] = [
  { name: "clock", type: "quantity", dimension: "frequency", min: 1e6, max: 1e11, doc: "Processor clock (Hz)." },
  { name: "issueWidth", type: "number", min: 0.1, max: 64, doc: "Instructions the core issues per cycle at most (peak)." },
  { name: "flopsPerCycle", type: "number", min: 0.1, max: 256, doc: "Peak floating-point operations per cycle." },
  {
    name: "computeEfficiency",
    type: "number",
    min: 0.01,
    max: 1,
    doc: "Fraction of the peak issue and floating-point rates compiled code sustains between memory stalls (dependencies, scheduling, branches); the cycles lost count as back-end execution bubbles. 1 = per-element work is an effective count at peak.",
    optional: true,
  },
  { name: "processorsPerNode", type: "integer", min: 1, max: 4096, doc: "Processors per node; at most one process runs on each." },
  { name: "overlapCycles", type: "number", min: 0, max: 10000, doc: "Cycles of miss latency hidden by independent work (out-of-order window)." },
  { name: "memoryParallelism", type: "number", min: 1, max: 256, doc: "Demand misses outstanding at once for misses the prefetcher does not cover." },
  ...levelParams("l1", "First-level data cache"),
  {
    name: "l1.integerOnly",
    type: "boolean",
    doc: "The first-level cache serves integer loads only (Itanium 2's L1D): floating-point loads and written-through stores are references of the next level, and arrays no integer load reads bypass it. Needs a level after it.",
    optional: true,
  },
  ...levelParams("l2", "Second-level cache"),
  ...levelParams("l3", "Third-level cache"),
  ...levelParams("l4", "Fourth-level cache (no counter counts it)"),
  { name: "tlb.entries", type: "integer", min: 1, max: 1 << 20, doc: "Data TLB entries (fully associative, LRU)." },
  { name: "tlb.pageSize", type: "quantity", dimension: "bytes", binaryUnits: true, min: 512, max: 2 ** 34, doc: "Page size, a power of two." },
  { name: "tlb.missPenalty", type: "number", min: 0, max: 1e6, doc: "Page-walk cost of a TLB miss, in cycles." },
  { name: "memory.latency", type: "quantity", dimension: "time", min: 0, max: 1000, doc: "Local memory latency: a time with its unit in a scenario (150ns); microseconds as a MachineConfig number." },
  { name: "memory.bandwidth", type: "quantity", dimension: "bandwidth", min: 1e3, max: 1e15, doc: "Sustainable local memory bandwidth of a node, shared by its processes: a rate with its unit in a scenario (6.4GB/s); bytes/s as a MachineConfig number." },
  { name: "memory.remoteLatency", type: "quantity", dimension: "time", min: 0, max: 1000, doc: "Remote (ccNUMA) memory latency: a time with its unit in a scenario (230ns); microseconds as a MachineConfig number. Where the preset defines it as equal to the local one (a distributed-memory cluster's node, which has no remote memory), a scenario that overrides memory.latency alone gets this key overridden with it; where the preset gives it as a figure of its own (itanium2-madison's), it keeps the preset's value, and remote memory nearer than local is warned about when memory.remoteFraction is above 0." },
  { name: "memory.remoteBandwidth", type: "quantity", dimension: "bandwidth", min: 1e3, max: 1e15, doc: "Remote (ccNUMA) memory bandwidth: a rate with its unit in a scenario (3.2GB/s); bytes/s as a MachineConfig number. Where the preset defines it as equal to the local one (a distributed-memory cluster's node, which has no remote memory), a scenario that overrides memory.bandwidth alone gets this key overridden with it; where the preset gives it as a figure of its own (itanium2-madison's), it keeps the preset's value, and remote memory faster than local is warned about when memory.remoteFraction is above 0." },
  {
    name: "memory.size",
    type: "quantity",
    dimension: "bytes",
    min: 1 << 20,
    max: 2 ** 60,
    doc: "Memory of a node, shared by its processes. Optional: when given, a kernel whose arrays exceed a process's share (size / processesPerNode) is warned about, since the model neither pages nor runs out of memory.",
    optional: true,
  },
  { name: "memory.remoteFraction", type: "number", min: 0, max: 1, doc: "Fraction of last-level misses served by another node's memory (ccNUMA) when the cluster has more than one node; a one-node cluster has no remote memory (0)." },
  { name: "prefetch.enabled", type: "boolean", doc: "Whether the hardware prefetcher runs." },
  { name: "prefetch.maxStride", type: "quantity", dimension: "bytes", min: 0, max: 2 ** 34, doc: "Largest stride the prefetcher follows (within a page)." },
  { name: "noise.computeCv", type: "number", min: 0, max: 10, doc: "Coefficient of variation of compute time per invocation. A draw never takes a kernel below the issue and floating-point peak, so with computeEfficiency near 1 the noise only slows it (its mean rises by up to 0.4 cv)." },
  { name: "noise.memoryCv", type: "number", min: 0, max: 10, doc: "Coefficient of variation of memory stalls while the arrays fit in the last cache level." },
  { name: "noise.overflowCv", type: "number", min: 0, max: 10, doc: "Extra coefficient of variation of memory stalls once the arrays overflow the last level." },
  { name: "noise.osRate", type: "quantity", dimension: "frequency", min: 0, max: 1e9, doc: "Rate of OS interruptions: a frequency with its unit in a scenario (100Hz); Hz as a MachineConfig number." },
  { name: "noise.osCost", type: "quantity", dimension: "time", min: 0, max: 1e9, doc: "Mean cost of one OS interruption: a time with its unit in a scenario (5us); microseconds as a MachineConfig number." },
  { name: "counters.native", type: "enum", values: ["itanium2", "none"], doc: "Native event table (itanium2: libpfm Itanium 2 names) or none (PAPI presets only)." },
  { name: "counters.pmuCounters", type: "integer", min: 0, max: 1024, doc: "Physical counters readable at once; 0 = unlimited (no PMU modelled). Counts the native events behind the metrics (counters.presetMap), each once; event-group constraints are not modelled." },
  {
    name: "counters.presetMap",
    type: "enum",
    values: ["itanium2", "pentium4", "none"],
    doc: "PAPI preset map that expands each preset into the native events it takes under pmuCounters: itanium2 (PAPI's ia2_preset_search_map), pentium4 (PAPI's papi_events.csv, CPU,netburst) or none (one counter per preset); default: itanium2 with the Itanium 2 natives, else none.",
    optional: true,
  },
  { name: "missModel", type: "enum", values: ["analytical", "reference", "auto"], doc: "Miss engine: analytical stride model, trace-driven LRU replay, or auto (replay small kernels)." },
  { name: "referenceMaxAccesses", type: "integer", min: 0, max: 2 ** 40, doc: "With missModel auto: largest kernel (distinct accesses per pass) replayed by the reference cache." },
];

const PARAM_BY_NAME = new Map(MACHINE_PARAMS.map((p) => [p.name, p]));

/** The documentation of one machine parameter by dotted key, or undefined. */
export function machineParam(name: string): ParamDoc | undefined {
  return PARAM_BY_NAME.get(name);
}

/** The value of a machine parameter by dotted key (`l2.size`), or undefined when absent. */
export function machineValue(config: unknown, key: string): unknown {
  let cur: unknown = config;
  for (const part of key.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function expectation(p: ParamDoc): string {
  const unit = p.type === "quantity" ? ` ${unitOf(p)}` : p.name.endsWith("latency") || p.name.endsWith("Penalty") ? " cycles" : "";
  if (p.type === "enum") return `one of ${(p.values ?? []).join(", ")}`;
  if (p.type === "boolean") return "true or false";
  const kind = p.type === "integer" ? "an integer" : "a number";
  return `${kind} in [${p.min ?? "-inf"}, ${p.max ?? "inf"}]${unit}`;
}

function unitOf(p: ParamDoc): string {
  switch (p.dimension) {
    case "bytes": return "bytes";
    case "time": return "microseconds";
    case "frequency": return "Hz";
    case "bandwidth": return "bytes/s";
    case "power": return "W";
    default: return "";
  }
}

/**
 * Checks every key of `config` against {@link MACHINE_PARAMS} plus the structural rules (powers
 * of two, sizes divisible by line x assoc, sectors dividing lines).
 * @param prefix - prefix of key names in errors (default `machine`)
 * @throws MachineInputError naming the first offending key and the expected unit/range (the
 *   first of {@link machineConfigErrors})
 */
export function validateMachine(config: MachineConfig, prefix = "machine"): void {
  const errors = machineConfigErrors(config, prefix);
  if (errors.length > 0) throw errors[0];
}

/**
 * Every problem of `config`, in the order {@link validateMachine} meets them: a cache level's
 * missing keys, each key's type and range, then the structural rules of each level whose own keys
 * passed (a rule is not applied to a key already reported) and the page size. Empty
 * when the configuration is valid.
 * @param prefix - prefix of key names in errors (default `machine`)
 */
export function machineConfigErrors(config: MachineConfig, prefix = "machine"): MachineInputError[] {
  const errors: MachineInputError[] = [];
  const bad = new Set<string>();
  const k = (name: string) => `${prefix}.${name}`;
  const report = (name: string, error: MachineInputError): void => {
    errors.push(error);
    bad.add(name);
  };
  for (const lk of LEVEL_KEYS) {
    const lv = config[lk];
    if (lv === undefined) continue;
    if (lv === null || typeof lv !== "object") {
      report(lk, new MachineInputError(k(lk), "an object {size, line, assoc, latency} or absent", lv));
      continue;
    }
    for (const req of ["size", "line", "assoc", "latency"]) {
      if ((lv as unknown as Record<string, unknown>)[req] === undefined)
        report(`${lk}.${req}`, new MachineInputError(k(`${lk}.${req}`), expectation(PARAM_BY_NAME.get(`${lk}.${req}`)!), undefined, `missing: a cache level needs size, line, assoc and latency (${expectation(PARAM_BY_NAME.get(`${lk}.${req}`)!)})`));
    }
  }
  for (const p of MACHINE_PARAMS) {
    const levelKey = p.name.split(".")[0];
    if (bad.has(levelKey)) continue;
    const v = machineValue(config, p.name);
    if (v === undefined) {
      if (p.optional) continue;
      if ((LEVEL_KEYS as readonly string[]).includes(levelKey)) continue;
      report(p.name, new MachineInputError(k(p.name), expectation(p), v));
      continue;
    }
    switch (p.type) {
      case "boolean":
        if (typeof v !== "boolean") report(p.name, new MachineInputError(k(p.name), expectation(p), v));
        break;
      case "enum":
        if (typeof v !== "string" || !(p.values ?? []).includes(v))
          report(p.name, new MachineInputError(k(p.name), expectation(p), v, `expected ${expectation(p)}, got ${JSON.stringify(v)}${typeof v === "string" ? didYouMean(v, p.values ?? []) : ""}`));
        break;
      default:
        if (typeof v !== "number" || !Number.isFinite(v) || (p.type === "integer" && !Number.isInteger(v)) || (p.min !== undefined && v < p.min) || (p.max !== undefined && v > p.max))
          report(p.name, new MachineInputError(k(p.name), expectation(p), v));
    }
  }
  let prevLine = 0;
  let prevLevel = "";
  for (const lk of LEVEL_KEYS) {
    const lv = config[lk];
    if (lv === undefined || bad.has(lk)) continue;
    // Each rule judges only keys that passed their own checks (those that did not are reported).
    const ok = (key: string): boolean => !bad.has(`${lk}.${key}`);
    if (ok("line") && !isPowerOfTwo(lv.line)) report(`${lk}.line`, new MachineInputError(k(`${lk}.line`), "a power of two (bytes)", lv.line));
    if (!ok("line")) continue;
    const sector = lv.sector ?? lv.line;
    // The line (and the associativity) each rule reads is the related key: a caller that knows
    // the scenario set it and left the other at the preset's value blames the key set.
    if (ok("sector") && (!isPowerOfTwo(sector) || sector > lv.line)) report(`${lk}.sector`, new MachineInputError(k(`${lk}.sector`), `a power of two (bytes) dividing ${lk}.line = ${lv.line}`, lv.sector, undefined, k(`${lk}.line`)));
    if (ok("size") && ok("assoc") && lv.size % (lv.line * lv.assoc) !== 0) report(`${lk}.size`, new MachineInputError(k(`${lk}.size`), `a multiple of ${lk}.line x ${lk}.assoc = ${lv.line * lv.assoc} bytes`, lv.size, undefined, k(`${lk}.assoc`)));
    if (!ok("sector")) continue;
    if (sector < prevLine) {
      // Without a sector of its own the level's sector is its line: blame the line, the key set.
      const key = lv.sector === undefined ? `${lk}.line` : `${lk}.sector`;
      const why = lv.sector === undefined ? ` (${lk}.sector defaults to ${lk}.line)` : "";
      errors.push(new MachineInputError(k(key), `at least the line of the level above, ${prevLevel}.line = ${prevLine} bytes: a fill must cover the missing line${why}`, sector, undefined, k(`${prevLevel}.line`)));
    }
    prevLine = lv.line;
    prevLevel = lk;
  }
  if (!bad.has("tlb.pageSize") && !isPowerOfTwo(config.tlb.pageSize)) errors.push(new MachineInputError(k("tlb.pageSize"), "a power of two (bytes)", config.tlb.pageSize));
  // An integer-only L1 sends floating-point loads and its stores to the next level: without one
  // the model would ignore the flag and count them as L1 accesses.
  const l1 = config.l1;
  if (l1 !== undefined && l1 !== null && typeof l1 === "object" && l1.integerOnly === true && !bad.has("l1.integerOnly") && LEVEL_KEYS.slice(1).every((lk) => config[lk] === undefined || config[lk] === null))
    errors.push(new MachineInputError(k("l1.integerOnly"), "false on a machine whose only cache level is l1", true, "an integer-only l1 needs a level after it, which serves the floating-point loads and stores (the machine has l1 alone)", k("l2")));
  return errors;
}

/** A machine parameter that is valid but unlike any real machine: its key and why. */
export interface MachineConfigWarning {
  /** The parameter's key (`machine.l2.size`). */
  readonly key: string;
  readonly message: string;
}

/**
 * What is valid but unlike any real machine in a configuration that {@link machineConfigErrors}
 * accepts: a cache level smaller than the level inside it, which can then only miss where the
 * inner one misses (the model bounds each level's misses by the inner level's, as in an
 * inclusive hierarchy), so it adds its latency and holds nothing more; and, on a machine with
 * `memory.remoteFraction` above 0, remote (ccNUMA) memory faster than local (a higher
 * `memory.remoteBandwidth` than `memory.bandwidth`, or a lower `memory.remoteLatency` than
 * `memory.latency`), whichever key set it so (a preset giving the two as figures of their own
 * keeps the remote one when a scenario overrides the local one alone).
 * @param prefix - how keys are named in warnings (default `machine`, giving `machine.l2.size`)
 * @param overridden - the keys (dotted, without `prefix`) a scenario sets: a warning about two
 *   keys is given at the one set (the remote one when both or neither are), naming the other,
 *   as the preset's when it is not set
 */
export function machineConfigWarnings(config: MachineConfig, prefix = "machine", overridden: ReadonlySet<string> = new Set()): MachineConfigWarning[] {
  const warnings: MachineConfigWarning[] = [];
  // The level inside the one at hand: its key and size.
  let inner: { key: string; size: number } | undefined;
  for (const lk of LEVEL_KEYS) {
    const lv = config[lk];
    if (lv === undefined || lv === null) continue;
    if (inner !== undefined && lv.size < inner.size) {
      warnings.push({
        key: `${prefix}.${lk}.size`,
        message: `${lv.size} bytes, smaller than ${prefix}.${inner.key}.size (${inner.size} bytes): a level outside another that holds less than it misses wherever ${inner.key} misses and keeps nothing ${inner.key} does not (is the size in the right unit?)`,
      });
    }
    inner = { key: lk, size: lv.size };
  }
  // (No miss is remote on a machine whose remoteFraction is 0: its remote memory is never used.)
  for (const pair of config.memory.remoteFraction > 0 ? REMOTE_MEMORY : []) {
    const local = machineValue(config, pair.local) as number;
    const remote = machineValue(config, pair.remote) as number;
    if (!pair.faster(remote, local)) continue;
    const theirs = (key: string): string => (overridden.has(key) ? "" : ", the preset's");
    // At the key the scenario set: the local one when it set that alone.
    const atLocal = overridden.has(pair.local) && !overridden.has(pair.remote);
    warnings.push(
      atLocal
        ? { key: `${prefix}.${pair.local}`, message: `${pair.text(local)}, ${pair.worse} ${prefix}.${pair.remote} (${pair.text(remote)}${theirs(pair.remote)}): remote (ccNUMA) memory ${pair.what} than local is unlike any real machine (set ${pair.remote} too, or is the value in the right unit?)` }
        : { key: `${prefix}.${pair.remote}`, message: `${pair.text(remote)}, ${pair.better} ${prefix}.${pair.local} (${pair.text(local)}${theirs(pair.local)}): remote (ccNUMA) memory ${pair.what} than local is unlike any real machine (is the value in the right unit?)` },
    );
  }
  return warnings;
}

/** Local and remote memory keys whose remote value should be no better than the local one. */
const REMOTE_MEMORY: readonly {
  readonly local: string;
  readonly remote: string;
  /** Whether `remote` is better than `local`. */
  readonly faster: (remote: number, local: number) => boolean;
  /** `remote` compared with `local` when it is better, and `local` with `remote`. */
  readonly better: string;
  readonly worse: string;
  /** What better memory is. */
  readonly what: string;
  /** A value in its unit. */
  readonly text: (v: number) => string;
}[] = [
  { local: "memory.bandwidth", remote: "memory.remoteBandwidth", faster: (r, l) => r > l, better: "above", worse: "below", what: "faster", text: (v) => `${+(v / 1e9).toPrecision(6)} GB/s` },
  { local: "memory.latency", remote: "memory.remoteLatency", faster: (r, l) => r < l, better: "below", worse: "above", what: "nearer", text: (v) => `${+(v * 1e3).toPrecision(6)} ns` },
];
