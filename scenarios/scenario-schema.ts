import { s, type Schema } from "./lang/index.js";
import { programSchema, type ProgramSection } from "./program/schema.js";

/** Name pattern of scenarios and component instances. */
export const NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_-]*$";
/** Name pattern of workload variables: names an expression can use (`n-iter` would read as `n - iter`). */
export const VARIABLE_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
/** {@link VARIABLE_PATTERN} in words. */
const VARIABLE_RULE = "a name an expression can read: letters, digits and _, starting with a letter or _";
/** {@link NAME_PATTERN} in words. */
const NAME_RULE = "a name: letters, digits, _ and -, starting with a letter or _";
/** A connection `user.port -> provider.port`. */
export const CONNECTION_PATTERN = "^\\s*([A-Za-z_][\\w-]*)\\.([A-Za-z_][\\w-]*)\\s*->\\s*([A-Za-z_][\\w-]*)\\.([A-Za-z_][\\w-]*)\\s*$";

/** The `machine:` section before preset resolution (overrides are checked against the preset). */
export interface MachineSection {
  readonly preset: string;
  readonly nodes: number;
  readonly processesPerNode: number;
  readonly placement: "block" | "round-robin";
  readonly network: Readonly<Record<string, unknown>>;
  /** Every other key: overrides of the preset's parameters (dotted or nested). */
  readonly [override: string]: unknown;
}

/** One component of the `assembly:` section. */
export interface ComponentSection {
  readonly type: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The `assembly:` section. */
export interface AssemblySection {
  readonly components: Readonly<Record<string, ComponentSection>>;
  readonly connections: readonly string[];
  readonly proxies: ReadonlyArray<{ readonly port: string; readonly parameters: Readonly<Record<string, string>>; readonly methods?: readonly string[] }>;
  readonly entry?: string;
}

/** The `outputs:` section. */
export interface OutputsSection {
  readonly dir?: string;
  readonly profile: boolean;
  readonly records: ReadonlyArray<"csv" | "jsonl">;
  readonly callgraph: boolean;
  readonly trace: boolean;
}

/** A validated scenario file (quantities in base units, defaults filled). */
export interface ScenarioConfig {
  readonly name: string;
  readonly description?: string;
  readonly seed: number | string;
  readonly machine: MachineSection;
  readonly metrics: readonly string[];
  readonly workload: Readonly<Record<string, number | string>>;
  readonly assembly?: AssemblySection;
  /** A program model (alternative to `assembly`). */
  readonly program?: ProgramSection;
  readonly outputs: OutputsSection;
}

/**
 * The schema of a scenario's `machine:` section (its own keys, defaults filled; the node
 * parameters' overrides are checked when the machine is set up).
 */
export function machineSectionSchema(): Schema {
  return s.object(
    {
      preset: s.string({ doc: "Node preset (xeon-2.8ghz-512k, itanium2-madison, ...)." }),
      nodes: s.optional(s.integer({ min: 1, doc: "Number of SMP nodes." }), 1),
      processesPerNode: s.optional(s.integer({ min: 1, doc: "MPI processes per node." }), 1),
      placement: s.optional(s.enumOf(["block", "round-robin"], { doc: "Rank-to-node placement." }), "block"),
      network: s.optional(s.record(s.any(), { doc: "Interconnect: preset, model, params, intraNode, eagerLimit, load, collectives." }), {}),
    },
    { doc: "The cluster: a node preset with overrides, node and process counts, the interconnect.", additional: s.any() },
  );
}

/**
 * The schema of scenario files. Machine overrides, network parameters, component parameters and
 * program models are checked by their owners after this first pass (their errors are located in
 * the file all the same).
 */
export function scenarioSchema(): Schema {
  const assembly = s.object(
    {
      components: s.record(
        s.object(
          {
            type: s.string({ doc: "Component type (see `ccasim run --help` for the list)." }),
            params: s.optional(s.record(s.any(), { doc: "Parameters of the component type." }), {}),
          },
          { doc: "A component instance: its type and parameters." },
        ),
        { doc: "Component instances by name (one copy of each runs on every rank).", keyPattern: NAME_PATTERN, keyRule: NAME_RULE },
      ),
      connections: s.optional(
        s.array(s.string({ pattern: CONNECTION_PATTERN, shape: "'User.usesPort -> Provider.providesPort' (component and port names of letters, digits, _ or -)", doc: "`user.usesPort -> provider.providesPort`" }), {
          doc: "Port connections.",
        }),
        [],
      ),
      proxies: s.optional(
        s.array(
          s.object(
            {
              port: s.string({ pattern: "^[A-Za-z_][\\w-]*\\.[A-Za-z_][\\w-]*$", shape: "'Component.port'", doc: "The provides port to proxy, `component.port`." }),
              parameters: s.optional(
                s.record(s.string(), {
                  doc: "Performance parameters to record: name -> `argument x`, `size of argument field`, `x` or `field.length` (from each call), or `parameter implementation` (the component's own parameter, the same in every call).",
                }),
                {},
              ),
              methods: s.optional(
                s.array(s.string(), { minItems: 1, uniqueItems: true, doc: "The port's methods to record (default: every method); the others are forwarded and timed, not recorded." }),
              ),
            },
            { doc: "A generated proxy in front of a provides port: records every invocation of its methods (Mastermind)." },
          ),
        ),
        [],
      ),
      entry: s.optional(s.string({ pattern: "^[A-Za-z_][\\w-]*\\.[A-Za-z_][\\w-]*\\.[A-Za-z_][\\w-]*$", shape: "'Component.port.method'", doc: "Entry point `component.port.method`, a method without arguments: each rank calls it once, with none (default: the driver)." })),
    },
    { doc: "The component assembly (CCA-style components wired through ports)." },
  );
  const root = s.object(
    {
      name: s.string({ pattern: NAME_PATTERN, shape: "a name of letters, digits, _ or - (not starting with a digit or -)", doc: "Scenario name (default output folder out/<name>)." }),
      description: s.optional(s.string({ doc: "What the scenario models." })),
      seed: s.optional(s.union([s.integer(), s.string()], { doc: "Seed of every random stream." }), 1),
      machine: machineSectionSchema(),
      metrics: s.optional(s.array(s.string(), { minItems: 1, doc: "Metrics to measure: TIME plus hardware counters of the node model." }), ["TIME"]),
      workload: s.optional(
        s.record(s.union([s.number(), s.string()]), {
          doc: "Workload variables, visible to every expression (which reads them as numbers: a text value is for components that read it as text). Overrides may set these, not add others.",
          keyPattern: VARIABLE_PATTERN,
          keyRule: VARIABLE_RULE,
        }),
        {},
      ),
      assembly: s.optional(assembly),
      program: s.optional(programSchema()),
      outputs: s.optional(
        s.object({
          dir: s.optional(s.string({ doc: "Output folder (default out/<name>); --out overrides it.", pattern: "\\S" })),
          profile: s.optional(s.boolean({ doc: "Write the TAU profile folder." }), true),
          records: s.optional(s.array(s.enumOf(["csv", "jsonl"]), { doc: "Per-invocation record formats, each once.", uniqueItems: true }), ["csv", "jsonl"]),
          callgraph: s.optional(s.boolean({ doc: "Write callgraph.json." }), true),
          trace: s.optional(s.boolean({ doc: "Write trace.json, a Chrome/Perfetto timeline: an assembly's timer calls (component methods, MPI calls) per rank, or a program model's elements per process thread." }), false),
        }),
        { profile: true, records: ["csv", "jsonl"], callgraph: true, trace: false },
      ),
    },
    { doc: "A ccasim scenario: a cluster, a component assembly (or program model), a workload and what to measure." },
  );
  return s.refine(root, (v: ScenarioConfig, report) => {
    if (v.assembly === undefined && v.program === undefined) report("a scenario needs an `assembly` or a `program` section");
    if (v.assembly !== undefined && v.program !== undefined) report("a scenario has either an `assembly` or a `program` section, not both", ["program"], "key");
    const lowerTime = v.metrics.findIndex((m) => m.toUpperCase() === "TIME" && m !== "TIME");
    // `time` is TIME misspelt, not a metric missing: say so at it (metric names are case-sensitive).
    if (!v.metrics.includes("TIME") && lowerTime >= 0) report(`unknown metric '${v.metrics[lowerTime]}' (did you mean 'TIME'?): metric names are case-sensitive, and metrics must include TIME`, ["metrics", lowerTime], "value");
    else if (!v.metrics.includes("TIME")) report("metrics must include TIME", ["metrics"], "key");
    else if (v.metrics[0] !== "TIME") report("TIME must be the first metric", ["metrics"], "key");
    const seen = new Set<string>();
    v.metrics.forEach((m, i) => {
      if (seen.has(m)) report(`metric '${m}' is listed twice`, ["metrics", i], "value");
      seen.add(m);
    });
  });
}
