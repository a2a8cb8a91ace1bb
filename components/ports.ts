/**
 * Ports: the typed interfaces through which CCA components provide and use functionality.
 *
 * @packageDocumentation
 */

/** One method of a port type. */
export interface MethodSpec {
  /** Method name, as the scenario and timers spell it. */
  readonly name: string;
  /** Names of its arguments, in order (used by proxies to extract performance parameters). */
  readonly args: readonly string[];
  /** What the method does. */
  readonly doc?: string;
}

/** A port type: a named set of methods (the SIDL interface of paper 001). */
export interface PortType {
  readonly name: string;
  readonly methods: readonly MethodSpec[];
  readonly doc?: string;
}

/**
 * An array argument. Simulated components pass descriptors, not data: what performance depends
 * on is the length, the element size and (for kernels) how the array is traversed.
 */
export interface ArrayArg {
  /** Number of elements. */
  readonly length: number;
  /** Bytes per element (8 for doubles). */
  readonly elementSize: number;
  /** Row length when the array is a 2-D patch stored row-major (elements). */
  readonly rowLength?: number;
}

/** Argument values of a port call: numbers, strings, booleans or array descriptors. */
export type CallArgs = Readonly<Record<string, number | string | boolean | ArrayArg>>;

/** A registry of port types by name. */
export const portTypes = new Map<string, PortType>();

/**
 * Declares a port type (idempotent for an identical redeclaration).
 * @throws Error when a different port type of that name exists
 */
export function definePortType(pt: PortType): PortType {
  const old = portTypes.get(pt.name);
  if (old && JSON.stringify(old) !== JSON.stringify(pt)) throw new Error(`port type '${pt.name}' is already defined differently`);
  portTypes.set(pt.name, pt);
  return pt;
}

/** True when `x` is an {@link ArrayArg}. */
export function isArrayArg(x: unknown): x is ArrayArg {
  return typeof x === "object" && x !== null && typeof (x as ArrayArg).length === "number";
}
