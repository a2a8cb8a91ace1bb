/**
 * The `program:` section of a scenario file: a Performance Prophet style program model (paper
 * 003) written as YAML. See `scenarios/prophet-sample.yaml` for a commented example.
 *
 * @packageDocumentation
 */
import { s, type Schema } from "../lang/index.js";

/** Types of program variables (C++ `long`, `double`, `bool`). */
export type VariableType = "int" | "double" | "bool";

/** A variable declaration: a type, or a type with an initial value. */
export type VariableDecl = VariableType | { readonly type: VariableType; readonly init?: number | boolean };

/** Fields every element may carry. */
interface ElementBase {
  /** Assignments run when the element starts (`GV = 1; P = 3.14`). */
  readonly code?: string;
  /** Cost function: an expression in `costUnit` (or the element's `unit`). */
  readonly cost?: string;
  /** Unit of this element's cost (`us`, `ms`, `s`). */
  readonly unit?: string;
}

/** `action: NAME`: a code block with a cost function. */
export interface ActionElement extends ElementBase {
  readonly action: string;
}
/** `activity: NAME`: runs the named diagram of `activities`. */
export interface ActivityElement {
  readonly activity: string;
}
/** `code: ...` on its own: assignments that take no time. */
export interface CodeElement {
  readonly code: string;
}
/** `if: cond` with `then`, optional `elif` arms and `else`. */
export interface IfElement {
  readonly if: string;
  readonly then: readonly ElementSection[];
  readonly elif?: ReadonlyArray<{ readonly if: string; readonly then: readonly ElementSection[] }>;
  readonly else?: readonly ElementSection[];
}
/** `for: i` over `from`..`to` (inclusive, step `step`) or `count` iterations. */
export interface ForElement {
  readonly for: string;
  readonly from?: string;
  readonly to?: string;
  readonly step?: string;
  readonly count?: string;
  readonly do: readonly ElementSection[];
}
/** `while: cond` at most `bound` iterations. */
export interface WhileElement {
  readonly while: string;
  readonly bound: string;
  readonly do: readonly ElementSection[];
}
/** Point-to-point and collective communication elements. */
export interface SendElement extends ElementBase {
  readonly send?: string;
  readonly isend?: string;
  readonly to: string;
  readonly size: string;
  readonly tag?: string;
  readonly request?: string;
}
/** `recv`/`irecv`. */
export interface RecvElement extends ElementBase {
  readonly recv?: string;
  readonly irecv?: string;
  readonly from: string;
  readonly size?: string;
  readonly tag?: string;
  readonly request?: string;
}
/** `wait`: completes the named requests. */
export interface WaitElement extends ElementBase {
  readonly wait: string;
  readonly requests: readonly string[];
}
/** `barrier`, `bcast`, `reduce`, `allreduce`. */
export interface CollectiveElement extends ElementBase {
  readonly barrier?: string;
  readonly bcast?: string;
  readonly reduce?: string;
  readonly allreduce?: string;
  readonly size?: string;
  readonly root?: string;
}

/** Any element as written. */
export type ElementSection =
  | ActionElement
  | ActivityElement
  | CodeElement
  | IfElement
  | ForElement
  | WhileElement
  | SendElement
  | RecvElement
  | WaitElement
  | CollectiveElement;

/** A diagram: a list of elements, or one with local variables. */
export type DiagramSection = readonly ElementSection[] | { readonly locals?: Readonly<Record<string, VariableDecl>>; readonly do: readonly ElementSection[] };

/** The `program:` section, validated. */
export interface ProgramSection {
  readonly costUnit: "ns" | "us" | "ms" | "s";
  readonly threads: number;
  readonly globals: Readonly<Record<string, VariableDecl>>;
  readonly functions: Readonly<Record<string, string>>;
  readonly activities: Readonly<Record<string, DiagramSection>>;
  readonly main: DiagramSection;
}

/** Element kinds, by the key that names them. */
export const ELEMENT_KINDS = ["action", "activity", "code", "if", "for", "while", "send", "isend", "recv", "irecv", "wait", "barrier", "bcast", "reduce", "allreduce"] as const;
/** One of {@link ELEMENT_KINDS}. */
export type ElementKind = (typeof ELEMENT_KINDS)[number];

const NAME = "^[A-Za-z_][A-Za-z0-9_]*$";
/** {@link NAME} in words. */
const NAME_RULE = "a name: letters, digits and _, starting with a letter or _";
const UNITS = ["ns", "us", "ms", "s"];

/** The schema of the `program:` section (used by the scenario schema and for JSON Schema). */
export function programSchema(): Schema {
  const expr = (doc: string, example?: string) => s.expression({ doc, ...(example ? { example } : {}) });
  // Examples of what a process, a size and a tag are (a cost's examples would mislead there).
  const RANK = "mod(pid + 1, np) or pid - 1";
  const BYTES = "8*M or 1024";
  const TAG = "7";
  const name = (doc: string) => s.string({ pattern: NAME, shape: "a name of letters, digits or _ (not starting with a digit)", doc });
  const common = {
    code: s.optional(s.string({ doc: "Assignments run when the element starts, C style: `GV = 1; P = 3.14`." })),
    cost: s.optional(expr("Cost function: an expression giving the element's local work, in costUnit (or `unit`).")),
    unit: s.optional(s.enumOf(UNITS, { doc: "Unit of this element's cost (default: the program's costUnit)." })),
  };
  const list: Schema = s.lazy("programElements", () => s.array(element, { doc: "Elements, run in order." }));
  const element: Schema = s.lazy(
    "programElement",
    () =>
      s.union(
        [
          s.object({ action: name("Action name (one TAU timer)."), ...common }, { doc: "An action: code fragment plus cost function." }),
          s.object({ activity: name("Name of a diagram in `activities`.") }, { doc: "Runs a nested, reusable activity diagram." }),
          s.object({ code: s.string({ doc: "Assignments that take no time." }) }, { doc: "A code fragment." }),
          s.object(
            {
              if: expr("Condition on variables.", "pid == 0 or i < N"),
              then: list,
              elif: s.optional(s.array(s.object({ if: expr("Condition."), then: list }), { doc: "Further conditions, tried in order." })),
              else: s.optional(list),
            },
            { doc: "A branch." },
          ),
          s.object(
            {
              for: name("Loop variable (a declared int)."),
              from: s.optional(expr("First value (default 0).", "0 or pid")),
              to: s.optional(expr("Last value, inclusive.", "N - 1")),
              step: s.optional(expr("Increment (default 1).", "1 or 2")),
              count: s.optional(expr("Number of iterations (the variable runs 0..count-1); instead of from/to.", "N or 10")),
              do: list,
            },
            { doc: "A counted loop (trip count fixed at entry, as a Fortran DO). After it the variable holds one step past its last value (from when it ran none), as C and Fortran leave it." },
          ),
          s.object({ while: expr("Condition checked before each iteration.", "err > 1e-6"), bound: expr("Maximum iterations; more is an error.", "1000"), do: list }, { doc: "A conditional loop with a bound." }),
          ...(["send", "isend"] as const).map((k) =>
            s.object(
              {
                [k]: name("Element name."),
                to: expr("Destination process (pid).", RANK),
                size: expr("Message size in bytes.", BYTES),
                tag: s.optional(expr("Message tag (default 0).", TAG)),
                ...(k === "isend" ? { request: name("Request name for a later `wait`.") } : {}),
                ...common,
              },
              { doc: k === "send" ? "A blocking send (MPI_Send)." : "A non-blocking send (MPI_Isend).", meant: { from: "to", dest: "to", destination: "to", bytes: "size" } },
            ),
          ),
          ...(["recv", "irecv"] as const).map((k) =>
            s.object(
              {
                [k]: name("Element name."),
                from: expr("Source process (pid), or `any`.", "mod(pid - 1 + np, np), pid + 1 or any"),
                size: s.optional(expr("Largest message accepted, bytes (default: any).", BYTES)),
                tag: s.optional(expr("Message tag (default 0).", TAG)),
                ...(k === "irecv" ? { request: name("Request name for a later `wait`.") } : {}),
                ...common,
              },
              { doc: k === "recv" ? "A blocking receive (MPI_Recv)." : "A non-blocking receive (MPI_Irecv).", meant: { to: "from", source: "from", src: "from", bytes: "size" } },
            ),
          ),
          s.object({ wait: name("Element name."), requests: s.array(name("A request name."), { minItems: 1 }), ...common }, { doc: "Waits for requests (MPI_Wait / MPI_Waitall)." }),
          s.object({ barrier: name("Element name."), ...common }, { doc: "MPI_Barrier over all processes." }),
          ...(["bcast", "reduce"] as const).map((k) =>
            s.object(
              { [k]: name("Element name."), size: expr("Bytes.", BYTES), root: s.optional(expr("Root process (default 0).", "0 or np - 1")), ...common },
              { doc: `MPI_${k === "bcast" ? "Bcast" : "Reduce"} over all processes.` },
            ),
          ),
          s.object({ allreduce: name("Element name."), size: expr("Bytes per process.", BYTES), ...common }, { doc: "MPI_Allreduce over all processes; the cost is local work done before it." }),
        ],
        // `code` is also a field of the other kinds: only the keys that name nothing else are exclusive.
        { doc: "A program element: the key that names it gives its kind.", exclusive: { keys: ELEMENT_KINDS.filter((k) => k !== "code"), what: "an element", alsoKinds: ["code"] } },
      ),
  );
  const varDecl = s.union(
    [
      s.enumOf(["int", "double", "bool"], { doc: "Type (initial value 0 / false)." }),
      s.object({ type: s.enumOf(["int", "double", "bool"]), init: s.optional(s.union([s.number(), s.boolean()], { doc: "Initial value." })) }),
    ],
    { doc: "A variable: its type, or { type, init }." },
  );
  const vars = (doc: string) => s.record(varDecl, { doc, keyPattern: NAME, keyRule: NAME_RULE });
  const diagram = s.union([list, s.object({ locals: s.optional(vars("Local variables of this diagram (fresh on each entry)."), {}), do: list })], {
    doc: "A diagram: a list of elements, or { locals, do }.",
  });
  return s.object(
    {
      costUnit: s.optional(s.enumOf(UNITS, { doc: "Unit of cost functions (default us)." }), "us"),
      threads: s.optional(s.integer({ min: 1, doc: "Threads per process (sharing its node); tid = 0..threads-1." }), 1),
      globals: s.optional(vars("Global variables (one copy per process thread), visible in every diagram."), {}),
      functions: s.optional(
        s.record(s.union([s.string(), s.number()]), {
          doc: "Cost functions: `NAME: expr` or `NAME(a, b): expr`; may use variables, pid, uid, tid, np, nt, node, nodes, npn (processors per node), workload values and other functions.",
          keyPattern: "^[A-Za-z_][A-Za-z0-9_]*(\\(\\s*([A-Za-z_][A-Za-z0-9_]*\\s*(,\\s*[A-Za-z_][A-Za-z0-9_]*\\s*)*)?\\))?$",
          keyRule: "a function name (letters, digits and _, starting with a letter or _), with its parameters' names in parentheses if it takes any: F or F(a, b)",
        }),
        {},
      ),
      activities: s.optional(s.record(diagram, { doc: "Reusable activity diagrams by name.", keyPattern: NAME, keyRule: NAME_RULE }), {}),
      main: diagram,
    },
    { doc: "A program model (Performance Prophet, paper 003): variables, cost functions and activity diagrams, run SPMD on every process." },
  );
}
