/**
 * Whether the runs whose records one fit pools set up the fitted components alike: a ccasim run
 * folder's `summary.json` holds the resolved scenario, and records carry no implementation, cost
 * formula or other component setting. Records of a CG run and a GMRES run of one `Solver` pooled
 * into one fit give a blend of the two that fits neither; this finds such differences so that the
 * caller can say so.
 *
 * @packageDocumentation
 */
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { runSummaryOf } from "../../profile/index.js";

/** One component setting whose value differs between the runs of a fit's inputs. */
export interface SettingDifference {
  readonly component: string;
  /** The parameter's key under the component (`implementation`, `cost`). */
  readonly key: string;
  /** Each distinct value (JSON text; `(unset)` when a run leaves the key out) with the first input that has it. */
  readonly values: readonly { readonly value: string; readonly input: string }[];
}

/** The value of a setting a run leaves out. */
const UNSET = "(unset)";

/**
 * The settings (resolved component parameters) of `components` that differ between the runs the
 * `inputs` come from (a run folder, or a records file inside one). Inputs without a run's
 * `summary.json` beside their records are left out; with fewer than two runs there is nothing to
 * compare.
 */
export function differingComponentSettings(inputs: readonly string[], components: readonly string[]): SettingDifference[] {
  const runs = inputs.map((input) => ({ input, components: resolvedComponents(input) })).filter((r) => r.components !== undefined);
  if (runs.length < 2) return [];
  const out: SettingDifference[] = [];
  for (const component of components) {
    const params = runs.map((r) => paramsOf(r.components![component]));
    const keys = [...new Set(params.flatMap((p) => Object.keys(p)))].sort();
    for (const key of keys) {
      const values: { value: string; input: string }[] = [];
      for (let i = 0; i < runs.length; i++) {
        const value = key in params[i]! ? JSON.stringify(params[i]![key]) : UNSET;
        if (!values.some((v) => v.value === value)) values.push({ value, input: runs[i]!.input });
      }
      if (values.length > 1) out.push({ component, key, values });
    }
  }
  return out;
}

/** The resolved scenario's components of the run an input comes from, or undefined. */
function resolvedComponents(input: string): Record<string, unknown> | undefined {
  let folder: string;
  try {
    folder = statSync(input).isDirectory() ? input : dirname(input);
  } catch {
    return undefined;
  }
  // Only a run's own summary (another tool's summary.json beside records says nothing of this).
  const summary = runSummaryOf(folder) as { resolved?: { assembly?: { components?: Record<string, unknown> } } } | undefined;
  const components = summary?.resolved?.assembly?.components;
  return typeof components === "object" && components !== null ? components : undefined;
}

/** A component's parameters, as a summary resolves them (an empty set for a component the run lacks). */
function paramsOf(component: unknown): Record<string, unknown> {
  const params = (component as { params?: unknown } | undefined)?.params;
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}
