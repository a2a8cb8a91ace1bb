/**
 * TAU parameter profiling (`TAU_PROFILE_PARAM1L`, group `TAU_PARAM`): TAU names the timer of one
 * parameter value `<base> [ <name> = <value> ]` and charges it the time of every instance of the
 * base timer that ran with that value, so its time is part of the base timer's time, not beside it.
 * TAU never puts such a timer on the call stack: callpaths do not name it, and ParaProf lists it as
 * one more flat timer of group `TAU_PARAM`.
 *
 * @packageDocumentation
 */
import type { CallNode } from "./call-tree.js";

/** ` [ <name> = <value> ]` at the end of a timer name, with TAU's spacing or tighter. */
const PARAMETER_SUFFIX = /^(.*?)\s*\[\s*<([^>]*)>\s*=\s*<(.*)>\s*\]$/;

/**
 * The base timer of a parameter-profiled timer (`int f(int) C [ <size> = <100> ]` gives
 * `int f(int) C`), or undefined for any other name.
 */
export function parameterBase(name: string): string | undefined {
  const m = PARAMETER_SUFFIX.exec(name);
  return m && m[1] !== "" ? m[1] : undefined;
}

/**
 * The component a timer stands for: the base timer of a parameter-profiled timer, else the timer
 * itself. Pruning counts a parameter value's node as its base timer's component.
 */
export function componentName(name: string): string {
  return parameterBase(name) ?? name;
}

/** What {@link nestParameterTimers} did. */
export interface NestedParameters {
  /** Parameter nodes moved under their base timer's node. */
  readonly nested: number;
  /** Parameter nodes of their own parent, removed. */
  readonly dropped: number;
}

/**
 * Moves parameter-profiled nodes under their base timer, in place, at every level of the tree: a
 * child `f [ <n> = <v> ]` next to a sibling `f` becomes a child of `f`, so the time of `f` is not
 * counted twice among siblings (as alpha's sum and beta's sibling mean would count it), and the
 * exclusive value of `f` loses what its parameter nodes now hold. A node that holds only its
 * timer's exclusive value (`recordedInclusive` set: the leaves of a flat profile's tree) gets its
 * parameter nodes scaled to that value, each its recorded inclusive value times the base's
 * exclusive/inclusive ratio. A parameter node of its own parent (`main [ <n> = <v> ]` under
 * `main`) repeats the parent's time and is removed.
 * @internal
 */
export function nestParameterTimers(node: CallNode): NestedParameters {
  let nested = 0;
  let dropped = 0;
  const kids = node.children;
  // Deepest first, so that parameter nodes moved under their base here are not visited again.
  for (const c of kids) {
    const below = nestParameterTimers(c);
    nested += below.nested;
    dropped += below.dropped;
  }
  const byName = new Map(kids.map((c) => [c.name, c]));
  for (let i = kids.length - 1; i >= 0; i--) {
    const base = parameterBase(kids[i]!.name);
    const owner = base === undefined ? undefined : byName.get(base);
    if (owner !== undefined) {
      const param = scaledUnder(kids.splice(i, 1)[0]!, owner);
      owner.children.unshift(param);
      owner.exclusive = Math.max(0, owner.exclusive - param.inclusive);
      nested++;
    } else if (base !== undefined && base === node.name) {
      kids.splice(i, 1);
      dropped++;
    }
  }
  return { nested, dropped };
}

/** A parameter node placed under its base node, scaled when the base holds only its exclusive time. */
function scaledUnder(param: CallNode, base: CallNode): CallNode {
  if (base.recordedInclusive === undefined) return param;
  const ratio = base.recordedInclusive > 0 ? base.inclusive / base.recordedInclusive : 0;
  const own = param.recordedInclusive ?? param.inclusive;
  return { ...param, inclusive: own * ratio, exclusive: own * ratio, recordedInclusive: own };
}
