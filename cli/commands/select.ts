import { parseCommandArgs, UsageError, type Command, type CommandContext } from "../command.js";
import { readTrial } from "../../profile/index.js";
import {
  AnalysisInputError,
  coreComponentsFromTimers,
  coreTimersOfTrial,
  implementationNames,
  unmatchedComponentTimers,
  findCrossovers,
  knownModelsAssembly,
  prepareAssembly,
  readLocatedAssemblyFile,
  AssemblyCostError,
  riskCostText,
  uncalledComponents,
  type AssemblyKeyLocator,
  selectImplementations,
  type QosConstraint,
} from "../../analysis/index.js";
import { assignments, foldGroupsOption, formatNumber, numberAssignments, formatTable, formatTableNumber, numberOption, shortTimerName, snapshotOption, toJson } from "./analysis-io.js";

const HELP = `ccasim select: choose the implementation of every component that minimises an assembly's
predicted time (paper 002), exactly, and compare with the pruned-core heuristic

Usage:
  ccasim select <assembly.yaml|assembly.json> --input <name=value>... [options]
  ccasim select --known-models --input x=1.5

The assembly file lists components with their implementations (a mean cost per invocation as a
number or a mathjs expression of the call site's inputs, optional sd and quality attributes), the
call graph (component, calls per parent invocation, args passed on, children), and optional
interaction costs between a caller's and a callee's implementations. scenarios/flux.assembly.yaml
(paper 000's flux component; power laws fitted to the simulated case study, see its comments):

  components:
    - name: Flux
      implementations:
        - { name: EFMFlux, mean: "exp(1.03*log(Q) - 2.25)", sd: "exp(1.52*log(Q) - 10.6)", qos: { accuracy: 1 } }
        - { name: GodunovFlux, mean: "exp(1.46*log(Q) - 6.07)", sd: "exp(1.92*log(Q) - 11.5)", qos: { accuracy: 2 } }
  callGraph: { component: Flux, calls: 100 }

Costs must be finite and >= 0 wherever they are evaluated (every --input, the whole --crossover
range, mean + k * sd with --risk): prefer models such as power laws that stay positive.

The exact optimum comes from dynamic programming over the caller-callee interactions (or from
exhaustive search when interactions form a cycle). With --core or --prune-trial, the paper's
heuristic (exhaustive search over the core components, the others at their first implementation)
is run too, and its optimality gap reported.

Options:
  --input <n=v>           input values (repeatable or comma-separated), e.g. --input x=3
  --known-models          use paper 002's known-models assembly as scenarios/known-models.yaml
                          runs it (A1 2x, A2 x^2, B1 x^3, B2 2x^2; A calls C 0.01x, B calls D 0.02x)
  --core <A,B,...>        core components for the heuristic (not with --prune-trial)
  --prune-trial <trial>   core components = the components that survive alpha/beta pruning of
                          this trial's component call graph (mean over threads; a profile or the
                          folder 'ccasim run' wrote): the timers of a component called from one
                          place are judged together, by the sum of their inclusive times;
                          a timer 'A::run()', 'A::<anything>' or 'A' belongs to component A,
                          or to the component A is an implementation of (as ccasim runs name
                          them: 'EFMFlux::compute()' counts for Flux; a real profile's
                          'void A::f(int) C' does not match)
  --alpha <a>             children-share threshold of that pruning, in [0, 1] (default 0.1, as
                          ccasim prune)
  --beta <b>              sibling-share threshold of that pruning, 0 or more (default 0.1, as
                          ccasim prune)
  --fold-group <g,...>    TAU groups (MPI, say) whose timers that pruning folds into their
                          callers first, as ccasim prune --fold-group (default none)
  --snapshot <n|name>     of a TAU XML --prune-trial, the snapshot of each thread to prune
                          (default the last), as ccasim prune --snapshot
  --risk <k>              choose by mean + k * sd per invocation (default 0)
  --require <key>=<min>   quality-of-service lower bound (repeatable), e.g. --require accuracy=2;
                          the attribute must be declared in some implementation's qos; it
                          constrains the components that declare it in some implementation
                          (their implementations without it are excluded), not the others
  --crossover <n>=<from>:<to>[:log]  scan input n and report where the best choice changes
  --json                  print the result as JSON

Examples:
  ccasim select --known-models --input x=1.5 --core Driver,A,B
  ccasim select --known-models --crossover x=0.5:5
  ccasim select scenarios/flux.assembly.yaml --input Q=5000 --require accuracy=2
  ccasim select scenarios/flux.assembly.yaml --crossover Q=100:100000:log --risk 2
  ccasim run scenarios/shock-neuronic.yaml --quiet
  ccasim select scenarios/flux.assembly.yaml --input Q=5000 --prune-trial out/shock-neuronic`;

const OPTIONS = {
  input: { type: "string", multiple: true },
  "known-models": { type: "boolean" },
  core: { type: "string" },
  "prune-trial": { type: "string" },
  "fold-group": { type: "string" },
  alpha: { type: "string" },
  beta: { type: "string" },
  risk: { type: "string" },
  require: { type: "string", multiple: true },
  crossover: { type: "string" },
  json: { type: "boolean" },
  snapshot: { type: "string" },
} as const;

function run(ctx: CommandContext): number {
  const { values: v, positionals } = parseCommandArgs("select", ctx.argv, OPTIONS);
  if (v["known-models"] !== true && positionals.length !== 1) throw new UsageError("give one assembly file, or --known-models", "select");
  // Why refuse rather than pick one: an option that silently does nothing answers another question.
  if (v["known-models"] === true && positionals.length > 0) throw new UsageError(`--known-models is the assembly: give it or an assembly file ('${positionals[0]}'), not both`, "select");
  if (v.core !== undefined && v["prune-trial"] !== undefined) throw new UsageError("give the heuristic's core with --core or have it found with --prune-trial, not both", "select");
  for (const name of ["alpha", "beta", "fold-group", "snapshot"] as const)
    if (v[name] !== undefined && v["prune-trial"] === undefined) throw new UsageError(`--${name} ${name === "snapshot" ? "chooses the snapshot of the profile" : "sets the pruning"} of --prune-trial; it needs --prune-trial`, "select");
  // Why refuse: a crossover scan alone runs no selection at a point, so the heuristic would not run.
  for (const name of ["core", "prune-trial"] as const)
    if (v[name] !== undefined && v.input === undefined && v.crossover !== undefined) throw new UsageError(`--${name} sets the core of the heuristic, which runs at the --input values; a --crossover scan alone runs no heuristic: add --input`, "select");
  const alpha = numberOption("select", "alpha", v.alpha, 0.1)!;
  const beta = numberOption("select", "beta", v.beta, 0.1)!;
  const file = v["known-models"] === true ? undefined : positionals[0]!;
  const source = file === undefined ? undefined : { file, ...readLocatedAssemblyFile(file) };
  const assembly = source === undefined ? knownModelsAssembly() : source.assembly;
  const prepared = prepareAssembly(assembly);
  for (const name of uncalledComponents(assembly)) {
    const at = source?.locate(["components", assembly.components.findIndex((c) => c.name === name), "name"]) ?? file;
    ctx.err(`warning: ${at}: component '${name}' is on no call site of the call graph: it costs 0 whatever its implementation, and the first of its implementations allowed is shown as chosen\n`);
  }
  const { values: inputs, texts: inputTexts } = numberAssignments("select", "input", v.input);
  const riskK = numberOption("select", "risk", v.risk, 0)!;
  const constraints: QosConstraint[] = Object.entries(assignments("select", "require", v.require)).map(([key, min]) => ({ key, min }));
  let core: string[] | undefined = v.core === undefined ? undefined : String(v.core).split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (core !== undefined && core.length === 0) throw new UsageError(`--core names no component ('${String(v.core)}'): give component names separated by commas, e.g. --core A,B`, "select");
  if (v["prune-trial"] !== undefined) {
    const trial = readTrial(String(v["prune-trial"]), { records: false, snapshot: snapshotOption(v.snapshot) });
    const names = assembly.components.map((c) => c.name);
    const implementations = implementationNames(assembly);
    const foldGroups = foldGroupsOption("select", v["fold-group"]);
    const timers = coreTimersOfTrial(trial, { alpha, beta, foldGroups, components: names, implementations });
    core = coreComponentsFromTimers(timers, names, trial.source, implementations);
    const unmatched = unmatchedComponentTimers(timers, names, implementations);
    if (unmatched.length > 0) {
      const shown = unmatched.slice(0, UNMATCHED_SHOWN).map((t) => `'${shortTimerName(t, 60)}'`).join(", ");
      const more = unmatched.length > UNMATCHED_SHOWN ? `, and ${unmatched.length - UNMATCHED_SHOWN} more` : "";
      ctx.err(`warning: ${trial.source}: ${unmatched.length} core timer${unmatched.length === 1 ? "" : "s"} of no component of the assembly (${shown}${more}) left out of the heuristic's core; components: ${names.join(", ")}\n`);
    }
  }
  let crossover;
  if (v.crossover !== undefined) {
    const m = /^([A-Za-z_][\w.]*)=([^:]+):([^:]+)(?::(log|linear))?$/.exec(String(v.crossover));
    if (!m || !Number.isFinite(Number(m[2])) || !Number.isFinite(Number(m[3]))) throw new UsageError(`--crossover expects name=from:to[:log], got '${String(v.crossover)}'`, "select");
    crossover = inFile(source, () => findCrossovers(prepared, { variable: m[1]!, from: Number(m[2]), to: Number(m[3]), spacing: (m[4] as "log" | undefined) ?? "linear", inputs, riskK, constraints }));
  }
  const at = crossover && inputs[crossover.variable] === undefined ? { ...inputs, [crossover.variable]: crossover.intervals[0]!.from } : inputs;
  const result = crossover && Object.keys(inputs).length === 0 ? undefined : inFile(source, () => selectImplementations(prepared, at, { riskK, constraints, coreComponents: core }));
  if (!crossover && !result) throw new UsageError("give --input values or --crossover", "select");
  if (v.json === true) {
    ctx.out(toJson({ selection: result, crossover }) + "\n");
    return 0;
  }
  const out: string[] = [];
  if (result) {
    out.push(`inputs: ${Object.entries(result.inputs).map(([k, x]) => `${k}=${inputTexts[k] ?? String(x)}`).join(", ") || "(none)"}${riskK ? `; cost = ${riskCostText(riskK)}` : ""}`);
    out.push(`optimum (${result.optimum.method}): ${Object.entries(result.optimum.assignment).map(([c, i]) => `${c}=${i}`).join(", ")}; predicted cost ${formatTableNumber(result.optimum.cost)}`);
    if (result.heuristic) {
      const h = result.heuristic;
      out.push(`heuristic over core {${h.core.join(", ")}} (${h.evaluated} ${h.evaluated === 1 ? "assembly" : "assemblies"}): cost ${formatTableNumber(h.cost)}, gap ${formatTableNumber(h.gap)} (${formatNumber(100 * h.relativeGap)} %)`);
    }
    for (const e of result.excluded) out.push(`excluded ${e.implementation} (${e.component}): ${e.reason}`);
    out.push(
      "",
      formatTable(
        ["component", "implementation", "cost (all call sites)", "chosen"],
        result.components.flatMap((c) => c.costs.map((x) => [c.component, x.implementation, x.cost, x.implementation === c.chosen ? "*" : x.allowed ? "" : "excluded"])),
      ),
    );
  }
  if (crossover) {
    if (out.length > 0) out.push("");
    out.push(`crossovers of ${crossover.variable}:${crossover.crossovers.length === 0 ? " none in the range" : ""}`);
    // (Written as the table below writes the intervals' ends: a crossover is found to a
    // tolerance, and a value rounded to look whole would differ from the table's.)
    for (const c of crossover.crossovers) out.push(`  at ${crossover.variable} = ${formatTableNumber(c.at)}: ${c.changes.map((x) => `${x.component} ${x.from} -> ${x.to}`).join(", ")}`);
    out.push(
      "",
      formatTable(
        ["from", "to", "best assembly"],
        crossover.intervals.map((i) => [i.from, i.to, Object.entries(i.assignment).map(([c, x]) => `${c}=${x}`).join(" ")]),
      ),
    );
  }
  ctx.out(out.join("\n") + "\n");
  return 0;
}

/**
 * `evaluate()`, with a cost's error at evaluation (an input not given, a negative cost at these
 * inputs) placed in the assembly file `read` (undefined for the built-in assembly), as its load
 * errors are: at the cost's line, else at the file.
 */
function inFile<T>(read: { readonly file: string; readonly locate: AssemblyKeyLocator } | undefined, evaluate: () => T): T {
  try {
    return evaluate();
  } catch (e) {
    if (read === undefined || !(e instanceof AnalysisInputError) || e.where === undefined || e.where.startsWith(read.file)) throw e;
    const place = e instanceof AssemblyCostError ? read.locate(e.path) : undefined;
    throw new AnalysisInputError(place === undefined ? e.detail : `${e.where}: ${e.detail}`, place ?? `${read.file}: ${e.where}`);
  }
}

/** Unmatched core timers the warning names (the rest are counted): a real profile has hundreds. */
const UNMATCHED_SHOWN = 5;

/** `ccasim select`: implementation selection. */
export const selectCommand: Command = {
  name: "select",
  help: HELP,
  run,
};

