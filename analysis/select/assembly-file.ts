/**
 * Assembly files for `ccasim select`: YAML or JSON with `components`, `callGraph` and optional
 * `interactions`, validated with errors that name the file and key.
 *
 * ```yaml
 * components:
 *   - name: A
 *     implementations:
 *       - { name: A1, mean: "2*x" }
 *       - { name: A2, mean: "x^2", sd: "0.1*x", qos: { accuracy: 2 } }
 * callGraph:
 *   component: Driver
 *   children:
 *     - { component: A, calls: 10, args: { Q: "x^2" } }
 * interactions:
 *   - { caller: Driver, callee: A, costs: [{ callerImpl: D1, calleeImpl: A2, cost: "0.5*Q" }] }
 * ```
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { AnalysisInputError } from "../errors.js";
import { keyPlace, keyText, notYamlError } from "../yaml-input.js";
import type { Assembly, CallSite, ComponentSpec, ImplementationSpec, InteractionSpec } from "./assembly.js";
import type { CostModel } from "./cost-model.js";
import { AssemblyKeyError, type AssemblyCostError } from "./cost-tables.js";
import { prepareAssembly } from "./select.js";
import { fileErrorText, measurementFileKind, otherInputFileKindText, parseLocatedYaml, YamlTextError, type KeyPath, type LocatedYaml } from "../../profile/index.js";

/** Where a key of an assembly file is (`file:line:column`), for messages; undefined when unknown. */
export type AssemblyKeyLocator = (path: KeyPath) => string | undefined;

/**
 * Validates a plain object as an {@link Assembly}: its keys and types, then the whole as
 * {@link prepareAssembly} compiles it (names listed once and known where they are used,
 * interactions between components that call each other, cost expressions that parse).
 * @param locate - where a key is in the file (`file:line:column`), put before the message in
 *   place of `where` when it finds the key
 * @throws AnalysisInputError naming `where` (or the key's location) and the offending key
 */
export function parseAssembly(raw: unknown, where: string, locate?: AssemblyKeyLocator): Assembly {
  const fail = (key: KeyPath, msg: string): never => {
    throw new AnalysisInputError(`key '${keyText(key)}': ${msg}`, locate?.(key) ?? where);
  };
  const obj = (v: unknown, key: KeyPath, known: string[]): Record<string, unknown> => {
    if (v === undefined) return fail(key, "missing: expected a mapping");
    if (typeof v !== "object" || v === null || Array.isArray(v)) return fail(key, "expected a mapping");
    for (const k of Object.keys(v)) if (!known.includes(k)) fail([...key, k], `unknown key (known: ${known.join(", ")})`);
    return v as Record<string, unknown>;
  };
  // Every key of a mapping whose keys are the user's (qos attributes, args); none of anything else,
  // which obj then refuses (Object.keys threw a TypeError on the null of an empty 'qos:').
  const anyKeys = (v: unknown): string[] => (typeof v === "object" && v !== null ? Object.keys(v) : []);
  const str = (v: unknown, key: KeyPath): string => (typeof v === "string" && v !== "" ? v : fail(key, "expected a non-empty string"));
  // A cost's expression is compiled (and its mistakes placed) with the whole assembly, below.
  const cost = (v: unknown, key: KeyPath): CostModel => (typeof v === "number" && Number.isFinite(v)) || typeof v === "string" ? v : fail(key, "expected a number or a mathjs expression");
  // A cost, sd or count written as a number below 0 is wrong whatever the inputs: refused here, at
  // its key, rather than at the first selection that evaluates it.
  const nonNegative = (v: unknown, key: KeyPath, what: string): CostModel => {
    const c = cost(v, key);
    const noun = what === "count" ? "a call count" : what === "sd" ? "a standard deviation" : "a cost";
    return typeof c === "number" && c < 0 ? fail(key, `${what} ${c} is below 0: ${noun} is 0 or more`) : c;
  };
  const arr = (v: unknown, key: KeyPath): unknown[] => (Array.isArray(v) ? v : fail(key, v === undefined ? "missing: expected a list" : "expected a list"));
  const top = obj(raw, [], ["components", "callGraph", "interactions"]);
  const components: ComponentSpec[] = arr(top.components, ["components"]).map((c, i) => {
    const k = ["components", i];
    const o = obj(c, k, ["name", "implementations"]);
    const implementations: ImplementationSpec[] = arr(o.implementations, [...k, "implementations"]).map((im, j) => {
      const kk = [...k, "implementations", j];
      const io = obj(im, kk, ["name", "mean", "sd", "qos"]);
      let qos: Record<string, number> | undefined;
      if (io.qos !== undefined) {
        const q = obj(io.qos, [...kk, "qos"], anyKeys(io.qos));
        qos = {};
        for (const [a, b] of Object.entries(q)) qos[a] = typeof b === "number" && Number.isFinite(b) ? b : fail([...kk, "qos", a], "expected a number");
      }
      return { name: str(io.name, [...kk, "name"]), mean: nonNegative(io.mean, [...kk, "mean"], "mean"), sd: io.sd === undefined ? undefined : nonNegative(io.sd, [...kk, "sd"], "sd"), qos };
    });
    return { name: str(o.name, [...k, "name"]), implementations };
  });
  // The call sites above the one being read: a YAML alias to one of them makes an endless graph.
  const above = new Map<unknown, string>();
  const site = (v: unknown, key: KeyPath, depth: number): CallSite => {
    const ancestor = above.get(v);
    if (ancestor !== undefined) fail(key, `refers back to its caller '${ancestor}' (a YAML alias): the call graph would never end; a call graph is a tree`);
    // At the call graph's own key: a path 1000 levels long would be no place to read.
    if (depth > 1000) fail(["callGraph"], "call graph deeper than 1000 levels");
    above.set(v, keyText(key));
    try {
      return readSite(v, key, depth);
    } finally {
      above.delete(v);
    }
  };
  const readSite = (v: unknown, key: KeyPath, depth: number): CallSite => {
    const o = obj(v, key, ["component", "calls", "args", "children"]);
    let args: Record<string, CostModel> | undefined;
    if (o.args !== undefined) {
      const a = obj(o.args, [...key, "args"], anyKeys(o.args));
      args = {};
      for (const [n, e] of Object.entries(a)) args[n] = cost(e, [...key, "args", n]);
    }
    return {
      component: str(o.component, [...key, "component"]),
      calls: o.calls === undefined ? undefined : nonNegative(o.calls, [...key, "calls"], "count"),
      args,
      children: o.children === undefined ? undefined : arr(o.children, [...key, "children"]).map((c, i) => site(c, [...key, "children", i], depth + 1)),
    };
  };
  const interactions: InteractionSpec[] | undefined =
    top.interactions === undefined
      ? undefined
      : arr(top.interactions, ["interactions"]).map((it, i) => {
          const k = ["interactions", i];
          const o = obj(it, k, ["caller", "callee", "costs"]);
          return {
            caller: str(o.caller, [...k, "caller"]),
            callee: str(o.callee, [...k, "callee"]),
            costs: arr(o.costs, [...k, "costs"]).map((c, j) => {
              const kk = [...k, "costs", j];
              const co = obj(c, kk, ["callerImpl", "calleeImpl", "cost"]);
              return {
                callerImpl: str(co.callerImpl, [...kk, "callerImpl"]),
                calleeImpl: str(co.calleeImpl, [...kk, "calleeImpl"]),
                cost: nonNegative(co.cost, [...kk, "cost"], "cost"),
              };
            }),
          };
        });
  const assembly: Assembly = { components, callGraph: site(top.callGraph, ["callGraph"], 0), interactions };
  // Why compile here: names that do not match, an interaction that is never paid and expressions
  // that do not parse are the file's mistakes, to be placed at their keys, not to surface later
  // from a selection.
  try {
    prepareAssembly(assembly);
  } catch (e) {
    if (e instanceof AssemblyKeyError) throw new AnalysisInputError(e.message, locate?.(e.path) ?? where);
    throw e;
  }
  return assembly;
}

/** An assembly read from a file, and where each of its keys is in the file. */
export interface LocatedAssembly {
  readonly assembly: Assembly;
  /** `file:line:column` of a key path (an {@link AssemblyCostError}'s), undefined when the file has no such key. */
  readonly locate: AssemblyKeyLocator;
}

/**
 * Reads an assembly from a YAML or JSON file.
 * @throws AnalysisInputError when the file cannot be read or parsed, or is not a valid assembly
 */
export function readAssemblyFile(path: string): Assembly {
  return readLocatedAssemblyFile(path).assembly;
}

/**
 * {@link readAssemblyFile}, with the places of its keys: a cost that later fails to evaluate
 * ({@link AssemblyCostError}) is placed at its line.
 * @throws AnalysisInputError as readAssemblyFile
 */
export function readLocatedAssemblyFile(path: string): LocatedAssembly {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new AnalysisInputError(`cannot read assembly file: ${fileErrorText(e)}`, path);
  }
  let located: LocatedYaml;
  try {
    located = parseLocatedYaml(text);
  } catch (e) {
    // A profile given in its place is named for what it is.
    const measured = measurementFileKind(path);
    if (measured !== undefined) throw new AnalysisInputError(`this is ${measured}, not an assembly file: ccasim select reads an assembly in YAML or JSON (ccasim select --help); a profile is for ccasim profile, fit, prune or power`, path);
    if (e instanceof YamlTextError) throw notYamlError(path, e);
    throw e;
  }
  const doc = located.value;
  // A scenario or a sweep file is named for what it is, not checked key by key.
  const otherKind = otherInputFileKindText(doc, path, "assembly");
  if (otherKind !== undefined) throw new AnalysisInputError(otherKind, path);
  const locate: AssemblyKeyLocator = (key) => keyPlace(path, located, key);
  return { assembly: parseAssembly(doc, path, locate), locate };
}
