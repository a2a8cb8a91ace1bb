import type { ParamDoc, Registrable, RandomStream, Simulation, SimEvent, Yieldable } from "../engine/index.js";
import type { CallArgs, PortType } from "./ports.js";
import type { TimerQuery } from "./measurement/index.js";

/** A method implementation: a generator run inside the calling rank's process. */
export type MethodImpl = (args: CallArgs) => Generator<Yieldable, unknown, any>;

/** What a component instance provides: per provides port, per method, its implementation. */
export interface ComponentInstance {
  readonly provides: Readonly<Record<string, Readonly<Record<string, MethodImpl>>>>;
}

/** A connected uses port, as a component sees it. */
export interface PortHandle {
  /** The port type. */
  readonly type: PortType;
  /**
   * Calls `method` on the provider (through its proxy, if any): `const r = yield* port.call("run", { x })`.
   * @throws Error when the method is not part of the port type
   */
  call(method: string, args: CallArgs): Generator<Yieldable, unknown, any>;
  /**
   * The provider's `method`, resolved once, for call loops that run the callee themselves:
   * `const t = m.enter(args); const r = yield* m.impl(args); m.leave(t);` does what
   * `yield* port.call(method, args)` does (proxy, timer and record included) with one iterator
   * less between the caller and the callee. Resolve it when first calling, not at `create` time
   * (providers may not exist yet).
   * @throws Error when the method is not part of the port type
   */
  method(method: string): PortMethod;
}

/** A method of a connected port, with what its proxy does around each call (see {@link PortHandle.method}). */
export interface PortMethod {
  /** The provider's implementation. */
  readonly impl: MethodImpl;
  /** Opens a call with arguments `args` (counts, times and records it); returns the token for {@link leave}. */
  enter(args: CallArgs): number;
  /** Closes the call opened by {@link enter}. */
  leave(token: number): void;
}

/** A compute kernel described per element, as the node model takes it (see machine/node/kernel.ts). */
export type { KernelSpec } from "../machine/index.js";
import type { KernelSpec } from "../machine/index.js";

/** Compiles a cost expression once; supplied by the scenario layer so errors point into the file. */
export interface ExpressionCompiler {
  /**
   * @param text - the expression (mathjs syntax)
   * @param known - the variables it may use
   * @param where - the parameter path within the component, for error messages (`cost`, `calls[1].args.x`)
   */
  compile(text: string | number, known: readonly string[], where: string): CostExpression;
  /** Throws an input error located at parameter path `where` of this component. */
  error(where: string, message: string): never;
}

/** A compiled cost expression (structurally the scenario layer's CompiledExpression). */
export interface CostExpression {
  readonly text: string;
  readonly variables: readonly string[];
  evaluate(scope: Readonly<Record<string, number>>): number;
  bind(names: readonly string[]): (values: ArrayLike<number>) => number;
}

/** What a component type is told when an instance is prepared (once, at load time). */
export interface PrepareEnv extends ExpressionCompiler {
  /** Instance name in the assembly. */
  readonly instance: string;
  /** Names of workload variables, usable in expressions. */
  readonly workloadNames: readonly string[];
  /**
   * The numeric workload values, when the scenario's are known at load: a component may check a
   * parameter that depends on them alone as a run would (`ccasim validate`).
   */
  readonly workloadValues?: Readonly<Record<string, number>>;
  /**
   * The run's number of MPI ranks (a scenario's machine.nodes x machine.processesPerNode), when
   * it is known at load: a component may check a parameter that must fit it (a rank grid) as a run
   * would (`ccasim validate`).
   */
  readonly ranks?: number;
  /**
   * Throws one error for several that `error` threw, so that a component reports all its
   * parameters' mistakes at once; without it, a component throws the first.
   */
  combine?(errors: readonly unknown[]): never;
}

/** The per-rank services a component method uses. */
export interface ComponentContext {
  /** This rank (0-based) and the number of ranks (SCMD: every rank has its own instance). */
  readonly rank: number;
  readonly size: number;
  /** Instance name in the assembly. */
  readonly instance: string;
  /** The simulation (for `sim.now`, events). */
  readonly sim: Simulation;
  /** Workload parameters of the scenario. */
  readonly workload: Readonly<Record<string, number | string>>;
  /** Numeric workload parameters, for expression scopes. */
  readonly workloadNumbers: Readonly<Record<string, number>>;
  /** The connected uses port `name`. @throws Error if it is not connected */
  uses(name: string): PortHandle;
  /** True when uses port `name` is connected. */
  isConnected(name: string): boolean;
  /** Spends `microseconds` of computation (time-proportional counters advance). */
  delay(microseconds: number): SimEvent<unknown>;
  /** Runs a compute kernel on this rank's processor: time and counters come from the node model. */
  compute(kernel: KernelSpec): SimEvent<unknown>;
  /**
   * Runs `kernels` one after the other (the loops of one routine): the time and counters of
   * {@link compute} for each, spent as one stretch (one event, not one per kernel).
   */
  computeAll(kernels: readonly KernelSpec[]): SimEvent<unknown>;
  /** This rank's MPI communicator (see machine/mpi). */
  readonly mpi: unknown;
  /** A random stream private to this instance and rank. */
  random(name: string): RandomStream;
  /** Records an atomic user event (count, min, max, mean, sum of squares). */
  trigger(event: string, value: number): void;
  /**
   * The measurement component's control and query interfaces (paper 001), or undefined when the
   * run is not measured: enable or disable timer groups at run time, read current timer values.
   */
  readonly measurement?: MeasurementPort;
}

/** What components may ask of the measurement component. */
export interface MeasurementPort {
  /**
   * Running timers of this rank, outermost first, with their inclusive and exclusive values so far
   * per metric (TIME in microseconds, counters in counts), calls and subroutine calls.
   */
  query(): ReadonlyArray<TimerQuery>;
  /** Stops recording timers of `group` (for example `MPI`) on every rank. */
  disableGroup(group: string): void;
  /** Resumes recording timers of `group`. */
  enableGroup(group: string): void;
}

/** The ports of a component, which may depend on its parameters. */
export interface ComponentPorts {
  readonly provides: Readonly<Record<string, PortType>>;
  readonly uses: Readonly<Record<string, PortType>>;
}

/**
 * A component type, registered by name in {@link componentTypes}. `prepare` runs once per instance
 * at load time (validate structure, compile expressions); `create` runs once per rank.
 */
export interface ComponentType<P = any> extends Registrable {
  /** Parameter documentation (drives validation and help). */
  readonly params: readonly ParamDoc[];
  /** Validates and compiles parameters; errors through `env.error` are located in the scenario. */
  prepare(params: Readonly<Record<string, unknown>>, env: PrepareEnv): P;
  /** The ports an instance with these prepared parameters provides and uses. */
  ports(prepared: P): ComponentPorts;
  /** Creates the instance of one rank. */
  create(ctx: ComponentContext, prepared: P): ComponentInstance;
  /**
   * The uses ports every invocation of a provided method calls at least once, whatever its
   * arguments (a call whose count is a constant): a cycle of connections through them never ends,
   * and is refused at load. Optional: without it, nothing is assumed.
   */
  alwaysCalls?(prepared: P): readonly string[];
}
