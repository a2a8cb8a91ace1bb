/**
 * The validated diagram tree of a program model: what the loader produces from the `program:`
 * section and what both evaluators (the compiled closures and the tree interpreter) run.
 * Expressions are compiled once (cost functions inlined) and bound to the variable slots.
 *
 * @packageDocumentation
 */
import type { CompiledExpression, KeyPath } from "../lang/index.js";
import type { VariableType } from "./schema.js";

/** An expression of the model, compiled. */
export interface ModelExpr {
  /** As written. */
  readonly text: string;
  /** After inlining cost functions. */
  readonly inlined: string;
  /** The compiled form (evaluate by name: the interpreter's path). */
  readonly compiled: CompiledExpression;
  /** Bound to the slot layout of its diagram: the compiled path. */
  readonly fn: (slots: Float64Array) => number;
  /** Where it is in the scenario. */
  readonly path: KeyPath;
}

/** `name = expr` of a code fragment. */
export interface Assignment {
  readonly name: string;
  readonly slot: number;
  readonly type: VariableType;
  readonly expr: ModelExpr;
}

/** Communication operations. */
export type CommOp = "send" | "isend" | "recv" | "irecv" | "wait" | "barrier" | "bcast" | "reduce" | "allreduce";

/** Collective operations (every process must call them, in the same order). */
export const COLLECTIVE_OPS: ReadonlySet<CommOp> = new Set(["barrier", "bcast", "reduce", "allreduce"]);

/** A node of the diagram tree. */
export type ModelNode =
  | { readonly kind: "action"; readonly element: number; readonly code: readonly Assignment[]; readonly cost?: ModelExpr; readonly unit: number }
  | { readonly kind: "activity"; readonly element: number; readonly diagram: Diagram }
  | { readonly kind: "code"; readonly code: readonly Assignment[] }
  | { readonly kind: "if"; readonly arms: ReadonlyArray<{ readonly cond: ModelExpr; readonly body: readonly ModelNode[] }>; readonly otherwise: readonly ModelNode[] }
  | {
      readonly kind: "for";
      readonly slot: number;
      readonly variable: string;
      readonly from?: ModelExpr;
      readonly to?: ModelExpr;
      readonly step?: ModelExpr;
      readonly count?: ModelExpr;
      readonly body: readonly ModelNode[];
      readonly path: KeyPath;
      /** File and path, for run-time errors. */
      readonly where: string;
    }
  | { readonly kind: "while"; readonly cond: ModelExpr; readonly bound: ModelExpr; readonly body: readonly ModelNode[]; readonly path: KeyPath; readonly where: string }
  | CommNode;

/** A communication element. */
export interface CommNode {
  readonly kind: "comm";
  readonly op: CommOp;
  readonly element: number;
  readonly code: readonly Assignment[];
  readonly cost?: ModelExpr;
  readonly unit: number;
  /** Destination (send), source (recv; undefined = any source) or root (bcast, reduce). */
  readonly peer?: ModelExpr;
  readonly size?: ModelExpr;
  readonly tag?: ModelExpr;
  /** Request slot written by isend/irecv. */
  readonly request?: number;
  /** Request slots a wait completes. */
  readonly requests?: readonly number[];
}

/**
 * Most entries of recursive activities one process thread may have open at once: recursion that
 * ends is a model a scenario can state, one that does not end is a located run-time error.
 */
export const MAX_ACTIVITY_NESTING = 256;

/** A diagram: `main` or a named activity. */
export interface Diagram {
  readonly name: string;
  /** Local variables: fresh on every entry (and restored when a recursive entry returns). */
  readonly locals: ReadonlyArray<{ readonly name: string; readonly slot: number; readonly type: VariableType; readonly init: number }>;
  readonly body: readonly ModelNode[];
  /**
   * True when the diagram calls itself, directly or through other activities: it may be entered
   * again while it runs, at most {@link MAX_ACTIVITY_NESTING} entries deep.
   */
  readonly recursive: boolean;
}

/** What each timed element is. */
export interface ElementInfo {
  readonly id: number;
  /** Timer name. */
  readonly name: string;
  /** Diagram it belongs to (its TAU group). */
  readonly diagram: string;
  readonly kind: "action" | "activity" | CommOp;
  readonly path: KeyPath;
  /** File and path, for run-time errors. */
  readonly where: string;
  /** `file:line:column` of the element in the scenario, when it has a place there (not set by an override). */
  readonly at?: string;
}

/**
 * Slots holding the process identity and the system's parameters (paper 003's "system
 * parameters": nodes, processors per node, processes, threads), in this order at the start of
 * every slot array: `pid`, `tid`, `uid` (`pid * nt + tid`), `np` (processes), `nt` (threads per
 * process), `node` (the process's node), `nodes`, `npn` (processors per node,
 * `machine.processorsPerNode`).
 */
export const SYSTEM_SLOTS = ["pid", "tid", "uid", "np", "nt", "node", "nodes", "npn"] as const;

/** A program model ready to run on a given machine layout. */
export interface ProgramModel {
  /** Names of the slots (locals of different diagrams may share a name; slots differ). */
  readonly slotNames: readonly string[];
  readonly slotTypes: readonly (VariableType | "system" | "workload")[];
  /** Initial slot values (system slots 0, filled per thread at run time). */
  readonly initial: Float64Array;
  readonly elements: readonly ElementInfo[];
  readonly main: Diagram;
  readonly diagrams: ReadonlyMap<string, Diagram>;
  /** Request names (isend/irecv handles), by slot. */
  readonly requests: readonly string[];
  /** Threads per process. */
  readonly threads: number;
  /** Processes (np). */
  readonly processes: number;
  /** Node of each process. */
  readonly processToNode: Int32Array;
  /** Nodes. */
  readonly nodes: number;
  /** Processors per node (the machine's, not the processes placed on it). */
  readonly processorsPerNode: number;
  /** Non-fatal findings of the validation (located). */
  readonly warnings: readonly string[];
}

/**
 * Fills the system slots of thread `tid` of process `pid` (its identity and the layout, see
 * {@link SYSTEM_SLOTS}) in `slots`, a slot array of `model`: how the runtime starts a thread and
 * the load-time checks evaluate one.
 */
export function setThreadSlots(model: ProgramModel, slots: Float64Array, pid: number, tid: number): void {
  slots[SYSTEM_SLOTS.indexOf("pid")] = pid;
  slots[SYSTEM_SLOTS.indexOf("tid")] = tid;
  slots[SYSTEM_SLOTS.indexOf("uid")] = pid * model.threads + tid;
  slots[SYSTEM_SLOTS.indexOf("np")] = model.processes;
  slots[SYSTEM_SLOTS.indexOf("nt")] = model.threads;
  slots[SYSTEM_SLOTS.indexOf("node")] = model.processToNode[pid];
  slots[SYSTEM_SLOTS.indexOf("nodes")] = model.nodes;
  slots[SYSTEM_SLOTS.indexOf("npn")] = model.processorsPerNode;
}
