/**
 * The event kernel: exact, deterministic discrete-event simulation with a typed-array event list,
 * generator processes, named random streams and waiting lines. Knows nothing about HPC.
 *
 * @packageDocumentation
 */
export { Simulation, type SimulationOptions, type RunOptions, type RunResult, type QueueChoice } from "./simulation.js";
export {
  type EventQueue,
  type EventHandler,
  type EventHandle,
  packOrder,
  orderPriority,
  orderSequence,
  MIN_PRIORITY,
  MAX_PRIORITY,
} from "./event-queue.js";
export { HeapQueue, HEAP_QUEUE_MAX_PENDING } from "./heap-queue.js";
export { ReferenceQueue } from "./reference-queue.js";
export { SimEvent, Timeout, AnyOf, AllOf, URGENT, NORMAL, type AnyOfValue } from "./events.js";
export { Process, type ProcessGenerator, type ProcessOptions, type Yieldable } from "./process.js";
export { RandomStream } from "./random.js";
export { WaitingLine, type WaitingLineOptions } from "./waiting-line.js";
export { InvalidDelayError, DeadlockError, Interrupt, type BlockedProcess } from "./errors.js";
export { type ParamDoc, type ParamValueDoc, type Dimension, formatParams } from "./params.js";
export { Registry, UnknownNameError, nearestName, didYouMean, editDistance, type Registrable } from "./registry.js";
