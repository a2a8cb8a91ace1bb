import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { readTrial } from "../../profile/index.js";
import { AnalysisInputError, estimateTrialPower, loadPowerConstantFile, powerConstantSets, rankInefficiencies, type EventPower, type InefficientEvent, type PowerConstantSet } from "../../analysis/index.js";
import { formatNumber, formatTable, formatTableNumber, list, numberOption, positiveIntegerOption, shortTimerName, snapshotOption, threadChoiceLabel, threadOption, toJson, refuseStudyDatabase } from "./analysis-io.js";
import { columnWidths, compareText } from "../../profile/internal.js";

const HELP = `ccasim power: power, energy, FLOP/J and counter metrics per event (paper 004)

Usage:
  ccasim power <trial> [options]
  ccasim power --list-constants [--constants-file <file>]... [--json]
  ccasim power --show-constants <name> [--constants-file <file>]... [--json]

The trial is a TAU profile directory, a folder 'ccasim run' wrote (its profile/ is read), a
profile.N.C.T file, a ParaProf .ppk file, a TAU XML profile (tauprofile.xml, snapshot.N.C.T) or a
CUBE4 profile (.cubex).

Power(C_i) = AccessRate(C_i) * ArchitecturalScaling(C_i) * MaxPower for the core and cache
components (AccessRate = accesses / cycles), TotalPower = sum + IdlePower; energy = power * time;
FLOP/J = floating-point operations / energy (the table prints MFLOP/J, millions; --json FLOP/J).
Counter metrics (paper 004, Eqs. 1-4): GlobalStalls = stall cycles / cycles, a fraction;
%FLPStalls = floating-point stall cycles / cycles, which the table prints in per cent (33.33) and
--json as the fraction (flpStalls 0.3333); FLPIneffI = FP operations / retired instructions *
GlobalStalls; and, in --json only, FLPIneffD = FP operations * the %FLPStalls fraction, the
memory stalls (cycles, with the set's latencies) and the remote memory access ratio (remote
accesses / L3 misses, left out where there is no L3 miss).

--json prints the library's TrialPower (estimateTrialPower): per row, power.watts, idleWatts and
each component's watts and accessRate (accesses per cycle), power.joules, power.flopsPerJoule,
power.basis (cycles, timeUs in microseconds and the counters they came from) and the metrics
above; then the lists the notes under the table print. The rows of events that spent no cycles
are in it too (in noCycles; their watts, the idle power, is no estimate).

Missing counters degrade the estimate instead of failing it: cycles are derived from the time and
the "CPU MHz" metadata (or time from cycles), components without access counters are omitted and
listed (the total is then a lower bound), and metrics that cannot be computed are listed; a trial
with the counters of no component at all is refused. A constant set names the processors it
describes (itanium2-madison: Itanium); a trial whose "CPU Type" metadata, or a ccasim run's machine
preset, names another gets a warning. The model is linear in the access rates and has no cap:
estimates above MaxPower (the thermal design power) are listed as over-statements.

MemStalls/cycles is the memory-stall model's estimate over the event's cycles. The model charges
every reference its full latency, one after another (an L1 hit 1 cycle, an L2 hit 2, ..., as TAU
PerfExplorer's script does), while a processor overlaps them, so it can exceed 1 (marked *, and
memoryStallsAboveCycles in --json): then the estimate exceeds the cycles it explains. The note
under the table counts the marked rows it shows (and all of them when --top leaves some out). Events with
cycles but no retired instruction are listed: their core power is 0 and, with no cache access
either, their estimate is the idle power (in a simulated run, time blocked in MPI or outside
kernels). Events that spent no cycles (no time of their own) have no power to estimate: they are
listed under the table, not in it, and make no estimate a lower bound.

Options:
  --constants <name>       constant set (default itanium2-madison, or the one set of the
                           --constants-file files; known: ${powerConstantSets.names().join(", ")})
  --constants-file <file>  YAML or JSON file with more constant sets (repeatable); when the files
                           hold one set, it is used unless --constants names another. Format
                           below.
  --list-constants         list the constant sets (name, processors, MaxPower, idle power)
  --show-constants <name>  print a set: MaxPower, idle power, each component's scaling factor and
                           access counters, the memory-stall latencies, the counter names of
                           every role, and where the constants come from. With --json, a set
                           (or, with --list-constants, the list of sets) in the constant file
                           format below: rename it to start a file of your own
  --exclusive              use exclusive values (default inclusive)
  --thread <t>             mean (default), max, total, each, or a thread n[,c[,t]] (node,
                           context, thread, by commas or dots; parts left out are 0: 3,1 is
                           3,1,0); total sums each thread's power and energy (paper 004: the total power
                           across processing elements is the sum of each one's) and their times;
                           max gives each event's thread of largest power, with its own figures
                           (mean applies the model to the threads' mean counters)
  --cpu-mhz <f>            CPU clock (MHz), in place of the metadata's "CPU MHz", to derive the
                           cycles from the time or the time from the cycles; a warning says so
                           when every event measured both (the clock then changes nothing)
  --sort <key>             watts (default), joules, flops-per-joule, name (by character code,
                           capitals first, as profile show sorts: the same in every locale)
  --top <n>                rows to show (default 20)
  --callpaths              include callpath timers
  --name-width <n>         widest event name (default 60, as 'ccasim prune'): longer timer names
                           lose directory paths, then their source location (a [SAMPLE] keeps
                           its line), then their middle; 0 keeps names whole (as --json does)
  --inefficiency           list the events whose %FLPStalls and FLPIneffI both exceed the average
                           by more than 50 % and whose inclusive time is more than half of the
                           total (paper 004, Table 3; needs the stall counters, refused
                           when no event has them; with --exclusive
                           the metrics are exclusive, the share still inclusive, the "% of time"
                           column). Events that retired no instruction are left out of the
                           averages: their FLPIneffI is 0/0 and their %FLPStalls of 0 says
                           nothing ran (in a simulated run, a rank blocked in MPI, whose
                           cycles are all stalls); counted, they would pull the averages down
                           and let ordinary kernels pass as inefficient
  --json                   print every row as JSON (not with --top, --sort, --name-width or
                           --inefficiency, which shape the table)
  --snapshot <n|name>      of a TAU XML profile, the snapshot of each thread to read: an index
                           (0 the first, -1 the last, the default) or a name (name:100 for a
                           name that is a number), as 'ccasim profile show --snapshot'

Constant file: one set (a mapping) or a list of sets, each with
  name: my-cpu                      # required, not a known set's name
  summary: "where the numbers come from"
  processors: [Xeon]                # substrings of the trial's "CPU Type"; left out: any
  maxPower: 95                      # watts (thermal design power), above 0, required
  idlePower: 40                     # watts, at most maxPower, required
  components:                       # required, at least one
    - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }
    - { name: L2, scaling: 0.2, accessCounters: [PAPI_L2_TCA] }
  latencies: { l1: 1, l2: 12, l3: 40, local: 200, remote: 400, tlb: 30 }   # cycles; optional
  counters: { cycles: [PAPI_TOT_CYC], flops: [PAPI_FP_OPS] }                # optional
Scaling factors are dimensionless (a component's share of MaxPower at one access per cycle);
accessCounters are tried in order. Latencies and counter roles left out are itanium2-madison's;
the roles are cycles, time, instructions, flops, stallCycles, flpStallTerms, l1Hits,
l2DataReferences, l2Misses, l3Misses, remoteAccesses, tlbMisses (--show-constants
itanium2-madison shows them all).

Examples:
  ccasim power --show-constants itanium2-madison
  ccasim power ../shared/data/tau/ppk/xgc-nosamples.ppk --exclusive --top 10   # a Xeon: warned
  ccasim run scenarios/shock-madison.yaml --quiet
  ccasim power out/shock-madison --exclusive --top 10`;

const OPTIONS = {
  constants: { type: "string" },
  "constants-file": { type: "string", multiple: true },
  "list-constants": { type: "boolean" },
  "show-constants": { type: "string" },
  exclusive: { type: "boolean" },
  thread: { type: "string" },
  "cpu-mhz": { type: "string" },
  sort: { type: "string" },
  top: { type: "string" },
  callpaths: { type: "boolean" },
  "name-width": { type: "string" },
  inefficiency: { type: "boolean" },
  json: { type: "boolean" },
  snapshot: { type: "string" },
} as const;

function run(ctx: CommandContext): number {
  const { values: v, positionals } = parseCommandArgs("power", ctx.argv, OPTIONS);
  refuseStudyDatabase("power", positionals, "'ccasim query' or 'ccasim report' on it, or estimate the power of a point's run folder");
  const loaded = list(v["constants-file"]).flatMap((f) => loadPowerConstantFile(f));
  if (ctx.verbose) for (const s of loaded) ctx.err(`loaded constant set '${s.name}'\n`);
  if (v["list-constants"] === true || v["show-constants"] !== undefined) {
    if (v["list-constants"] === true && v["show-constants"] !== undefined) throw new UsageError("give --list-constants or --show-constants, not both", "power");
    const other = Object.keys(v).filter((k) => v[k] !== undefined && !["list-constants", "show-constants", "constants-file", "json"].includes(k));
    if (positionals.length > 0 || other.length > 0) throw new UsageError(`--${v["list-constants"] === true ? "list-constants" : "show-constants"} prints constants and reads no trial; ${positionals.length > 0 ? `'${positionals[0]}'` : `--${other[0]}`} does not apply`, "power");
    const sets = v["list-constants"] === true ? powerConstantSets.names().map((n) => powerConstantSets.get(n)) : [powerConstantSets.get(String(v["show-constants"]))];
    // JSON: the sets as the constant file format has them (the file format is the set's fields).
    if (v.json === true) ctx.out(toJson(v["list-constants"] === true ? sets : sets[0]) + "\n");
    else ctx.out(v["list-constants"] === true ? listConstantSets(sets) : showConstantSet(sets[0]!));
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("give one trial (see 'ccasim power --help')", "power");
  // Why refuse rather than ignore: --json prints every row, unsorted and with full names.
  if (v.json === true) for (const o of ["top", "sort", "name-width", "inefficiency"]) if (v[o] !== undefined) throw new UsageError(`--${o} shapes the table; --json prints every row in full (rankInefficiencies of the library ranks them)`, "power");
  // A file of one set names the set to use, unless --constants names another.
  const setName = v.constants !== undefined ? String(v.constants) : loaded.length === 1 ? loaded[0]!.name : "itanium2-madison";
  const set = powerConstantSets.get(setName);
  const view = threadOption("power", "thread", v.thread, ["mean", "max", "total", "each"] as const) ?? "mean";
  const sort = v.sort === undefined ? "watts" : String(v.sort);
  if (!["watts", "joules", "flops-per-joule", "name"].includes(sort)) throw new UsageError(`--sort expects watts, joules, flops-per-joule or name, got '${sort}'`, "power");
  const cpuMHz = numberOption("power", "cpu-mhz", v["cpu-mhz"]);
  if (cpuMHz !== undefined && !(cpuMHz > 0)) throw new UsageError(`--cpu-mhz expects a clock above 0 MHz, got ${v["cpu-mhz"]}`, "power");
  const top = positiveIntegerOption("power", "top", v.top, 20)!;
  // 0 keeps names whole; a positive width shortens the longer ones (as prune --name-width).
  const nameWidth = v["name-width"] === "0" ? 0 : positiveIntegerOption("power", "name-width", v["name-width"], 60)!;
  const trial = readTrial(positionals[0]!, { records: false, snapshot: snapshotOption(v.snapshot) });
  const r = estimateTrialPower(trial, set, { kind: v.exclusive === true ? "exclusive" : "inclusive", view, flatOnly: v.callpaths !== true, cpuMHz });
  // Every estimate the idle power alone is no estimate: say what is missing instead.
  if (r.events.length > 0 && !r.anyComponent) {
    // A time without a clock (a CUBE4 or Score-P profile never records "CPU MHz") gives no cycles: the option that gives the clock is named.
    const noClock = r.basis.cyclesFrom === "unavailable" && r.basis.timeFrom !== "unavailable" && r.cpuMHz === undefined;
    const clockHint = noClock ? `; the trial has a time (${r.basis.timeFrom}) but no cycle counter and no "CPU MHz" metadata to derive the cycles from it: give the clock with --cpu-mhz <MHz>` : "";
    throw new AnalysisInputError(`no event has what any component of the power model needs, so every estimate would be the idle power (${set.idlePower} W): ${r.omittedComponents.join("; ")}${clockHint}`, positionals[0]!);
  }
  // Ranked before any output: a ranking that cannot be made is refused with nothing printed.
  let ineff: InefficientEvent[] = [];
  if (v.inefficiency === true) {
    try {
      ineff = rankInefficiencies(r);
    } catch (e) {
      if (e instanceof AnalysisInputError) throw new AnalysisInputError(`--inefficiency: ${e.detail}`, positionals[0]!);
      throw e;
    }
  }
  const key = (e: EventPower): number => (sort === "joules" ? e.power.joules : sort === "flops-per-joule" ? e.power.flopsPerJoule : e.power.watts);
  // Events that spent no cycles have no power to estimate: listed apart, under the table.
  const rows = r.events.filter((e) => e.power.basis.cycles !== 0).sort((a, b) => (sort === "name" ? compareText(a.event, b.event) : (Number.isNaN(key(b)) ? -Infinity : key(b)) - (Number.isNaN(key(a)) ? -Infinity : key(a))));
  if (v.json === true) {
    ctx.out(toJson(r) + "\n");
    return 0;
  }
  const shown = rows.slice(0, top);
  const memory = memoryRatioCells(shown);
  const out = [
    `constants ${set.name}: MaxPower ${set.maxPower} W, idle ${set.idlePower} W; ${v.exclusive === true ? "exclusive" : "inclusive"} values, ${view === "each" ? "every thread" : threadChoiceLabel(view)}`,
    r.events.length === 0 ? "no events in this view" : `cycles from ${r.basis.cyclesFrom}; time from ${r.basis.timeFrom}${clockText(r.cpuMHzRange)}`,
    ...(r.processorMismatch === undefined ? [] : [`warning: ${r.processorMismatch}`]),
    // FP instructions count a fused multiply-add once, its two operations as one.
    ...(r.events.some((e) => e.power.flopsFrom === "PAPI_FP_INS") ? ["FLOP/J from PAPI_FP_INS, FP instructions: a fused multiply-add counts once, so FLOP/J reads up to 2x low where code fuses them"] : []),
    // An option that changes nothing is said to: every row measured its cycles and its time.
    ...(cpuMHz !== undefined && !r.clockUsed && r.events.length > 0 ? [`warning: --cpu-mhz ${v["cpu-mhz"]} is not used: every event has its cycles and its time measured${r.measuredMHz === undefined ? "" : `, which give ${formatNumber(r.measuredMHz)} MHz`}`] : []),
    ...(view === "max" ? ["max over threads: each event's row is the estimate of its thread of largest power (the thread column), all its figures that thread's"] : []),
    ...(view === "total" ? ["total over threads: power is the sum of each thread's power (paper 004: the total power across processing elements), energy the sum of each thread's energy, time the sum of the threads' times"] : []),
    "",
    formatTable(
      ["event", ...(view === "each" || view === "max" ? ["thread"] : []), ...(view === "total" ? ["time (s, Σ threads)", "power (W, Σ threads)", "energy (J, Σ threads)"] : ["time (s)", "power (W)", "energy (J)"]), "MFLOP/J", "GlobalStalls", "%FLPStalls", "FLPIneffI", MEMORY_HEADER],
      shown.map((e, i) => [
        shortTimerName(e.event, nameWidth),
        ...(view === "each" ? [e.view] : view === "max" ? [e.thread ?? ""] : []),
        e.power.basis.timeUs * 1e-6,
        e.power.watts,
        e.power.joules,
        // why: FLOP/J runs to 8 digits; in millions it takes the 4 significant digits of the other columns
        e.power.flopsPerJoule * 1e-6,
        e.metrics.globalStalls ?? NaN,
        e.metrics.flpStalls === undefined ? NaN : 100 * e.metrics.flpStalls,
        e.metrics.flpIneffI ?? NaN,
        memory[i]!,
      ]),
    ),
  ];
  if (rows.length > top) out.push(`(${rows.length - top} more rows; --top to show them)`);
  if (v.inefficiency === true) {
    out.push("", ineff.length === 0 ? "no event is both inefficient (I1, I2 > 1.5 x average) and > 50 % of the time" : formatTable(["inefficient event", "view", "I1/I1avg", "I2/I2avg", "% of time"], ineff.map((e) => [shortTimerName(e.event, nameWidth), e.view, e.i1Ratio, e.i2Ratio, 100 * e.share])));
  }
  if (r.noCycles.length > 0) {
    const n = r.noCycles.length;
    // Exclusive values: a routine that only calls others has none of its own; inclusive ones: only a call too short to count.
    const why = v.exclusive === true ? `no time of ${n === 1 ? "its" : "their"} own: a routine that only calls others, or a call too short to count` : "a call too short to count";
    out.push("", `${n} event${n === 1 ? "" : "s"} spent no cycles, so there is no power to estimate (${why}):`, `  ${r.noCycles.slice(0, 8).join(", ")}${n > 8 ? ", ..." : ""}`);
  }
  if (r.noInstructions.length > 0) {
    const n = r.noInstructions.length;
    const idleRows = r.events.filter((e) => e.metrics.retiredInstructions === 0 && e.power.basis.cycles > 0);
    const idle = idleRows.every((e) => e.power.watts === e.power.idleWatts);
    // %FLPStalls is 0 only where the stall counters gave it; without them it is not computed at all.
    const flp = idleRows.some((e) => e.metrics.flpStalls !== undefined) ? "%FLPStalls 0 and no FLPIneffI" : "no FLPIneffI";
    out.push(
      "",
      `${n} event${n === 1 ? "" : "s"} retired no instruction: ${idle ? "their power is the idle power" : "their core power is 0"} (in a simulated run, time blocked in MPI or outside kernels); ${flp}, left out of the inefficiency averages:`,
      `  ${r.noInstructions.slice(0, 5).join(", ")}${n > 5 ? ", ..." : ""}`,
    );
  }
  if (r.memoryStallsAboveCycles.length > 0) {
    // Counted over the rows the table shows (those marked *), then over every row when --top hides some.
    const starred = shown.filter((e) => e.metrics.memoryStallsAboveCycles);
    const hidden = rows.length > shown.length ? ` (${r.memoryStallsAboveCycles.length} of all ${rows.length} rows, with those --top leaves out)` : "";
    out.push(
      "",
      `* ${starred.length} of the ${shown.length} rows above ${starred.length === 1 ? "has a memory-stall ratio" : "have memory-stall ratios"} above 1${hidden}: the model's estimate exceeds the cycles it explains, as it charges every L1 hit ${set.latencies.l1} cycle${set.latencies.l1 === 1 ? "" : "s"}, every L2 hit ${set.latencies.l2} and so on, one after another (as TAU PerfExplorer's script does), while the processor overlaps those latencies; compare such ratios between events, not with 1${starred.length > 0 ? ":" : ""}`,
      ...(starred.length > 0 ? [`  ${starred.slice(0, 5).map(rowName).join(", ")}${starred.length > 5 ? ", ..." : ""}`] : []),
    );
  }
  if (r.aboveMaxPower.length > 0) {
    const n = r.aboveMaxPower.length;
    out.push("", `${n} of the ${rows.length} estimates above MaxPower (${set.maxPower} W, the thermal design power): the model is linear in the access rates and has no cap, so these over-state the power:`, `  ${r.aboveMaxPower.slice(0, 5).join(", ")}${n > 5 ? ", ..." : ""}`);
  }
  if (r.omittedComponents.length > 0) out.push("", "power components omitted (power is a lower bound):", ...r.omittedComponents.map((s) => `  ${s}`));
  if (r.missingMetrics.length > 0) out.push("", "counter metrics not computed:", ...r.missingMetrics.map((s) => `  ${s}`));
  ctx.out(out.join("\n") + "\n");
  return 0;
}

/** `ccasim power`: counter-based power and performance metrics. */
export const powerCommand: Command = {
  name: "power",
  help: HELP,
  run,
};

const MEMORY_HEADER = "MemStalls/cycles";

/** A row as the notes under the table name it: `<event> (<view>)`, as the library's lists do. */
function rowName(e: EventPower): string {
  return `${e.event} (${e.view})`;
}

/**
 * The memory-stall ratio column: numbers right-aligned, a ratio above 1 marked `*` (the note
 * under the table says why), "-" where it could not be computed.
 */
function memoryRatioCells(rows: readonly EventPower[]): string[] {
  const text = rows.map((e) => {
    const x = e.metrics.memoryStallRatio;
    return x === undefined ? "- " : `${formatTableNumber(x)}${e.metrics.memoryStallsAboveCycles ? "*" : " "}`;
  });
  // A loop, not a spread into Math.max: one argument per event overflows the stack on large profiles.
  const width = columnWidths([MEMORY_HEADER.length], text.map((t) => [t]))[0]!;
  return text.map((t) => t.padStart(width));
}

/** The constant sets, one line each. */
function listConstantSets(sets: readonly PowerConstantSet[]): string {
  return formatTable(
    ["constant set", "processors", "MaxPower (W)", "idle (W)", "summary"],
    sets.map((x) => [x.name, x.processors?.join(", ") || "any", x.maxPower, x.idlePower, x.summary]),
  ) + "\n";
}

/** Every constant of a set, as --show-constants prints it. */
function showConstantSet(set: PowerConstantSet): string {
  const lines = [
    `constant set ${set.name}`,
    `source:      ${set.summary}`,
    `processors:  ${set.processors?.join(", ") || "any"}`,
    `MaxPower:    ${set.maxPower} W (thermal design power)`,
    `idle power:  ${set.idlePower} W`,
    "",
    formatTable(["component", "scaling factor", "access counters (first present is used)"], set.components.map((c) => [c.name, c.scaling, c.accessCounters.join(", ")])),
    "",
    `latencies (cycles): ${Object.entries(set.latencies).map(([k, x]) => `${k} ${x}`).join(", ")}`,
    "",
    formatTable(["counter role", "counter names (first present is used; flpStallTerms are summed)"], Object.entries(set.counters).map(([k, names]) => [k, (names as readonly string[]).join(", ")])),
  ];
  return lines.join("\n") + "\n";
}

/** The CPU clock line's part: one clock, or the range of the threads' own clocks (MHz, 6 significant digits). */
function clockText(range: readonly [number, number] | undefined): string {
  if (range === undefined) return "";
  const mhz = (x: number): string => String(Number(x.toPrecision(6)));
  return range[0] === range[1] ? `; CPU ${mhz(range[0])} MHz` : `; CPU ${mhz(range[0])} to ${mhz(range[1])} MHz (each thread its own)`;
}
