/**
 * What the states and flux kernels share: reading the array argument and the mode of a call, and
 * pricing the loops of one sweep over a patch array on the node model.
 *
 * @packageDocumentation
 */
import { isArrayArg, type CallArgs } from "../../ports.js";
import type { KernelSpec } from "../../../machine/index.js";
import type { SweepMode } from "./ports.js";
import { ScenarioValueError } from "../scenario-value-error.js";

/**
 * Prepares every kernel of `kernels` (the loops of one invocation) for a sweep over the array
 * `args[arrayName]` in `args.mode` and returns the number of doubles. The sequential mode walks
 * the arrays in storage order (X-derivatives); the strided mode walks them column by column with
 * stride = the patch row length (Y-derivatives), so the cache model decides what the difference
 * costs.
 * @throws ScenarioValueError when the argument is not an array or the mode is neither `sequential` nor `strided`
 */
export function prepareSweep(kernels: readonly KernelSpec[], args: CallArgs, arrayName: string, who: string): number {
  const a = args[arrayName];
  if (!isArrayArg(a)) throw new ScenarioValueError(`${who}: argument '${arrayName}' must be an array descriptor`);
  const mode = args.mode as SweepMode;
  if (mode !== "sequential" && mode !== "strided") throw new ScenarioValueError(`${who}: mode must be 'sequential' or 'strided', got ${JSON.stringify(args.mode)}`);
  const stride = Math.max(1, Math.min(a.length, a.rowLength ?? a.length));
  for (const kernel of kernels) {
    kernel.elements = a.length;
    kernel.elementSize = a.elementSize;
    kernel.pattern = mode;
    kernel.stride = stride;
  }
  return a.length;
}
