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
import { parse as parseYaml } from "yaml";
import { AnalysisInputError } from "../errors.js";
import type { Assembly, CallSite, ComponentSpec, ImplementationSpec, InteractionSpec } from "./assembly.js";
import type { CostModel } from "./cost-model.js";
import { prepareAssembly } from "./select.js";
import { fileErrorText, measurementFileKind, otherInputFileKindText } from "../../profile/index.js";

/**
 * Validates a plain object as an {@link Assembly}: its keys and types, then its cost models and
 * call graph as {@link prepareAssembly} compiles them (known components, expressions that parse).
 * @throws AnalysisInputError naming `where` and the offending key, component or expression
 */
export function parseAssembly(raw: unknown, where: string): Assembly {
  const fail = (key: string, msg: string): never => {
    throw new AnalysisInputError(`key '${key}': ${msg}`, where);
  };
  const obj = (v: unknown, key: string, known: string[]): Record<string, unknown> => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return fail(key, "expected a mapping");
    for (const k of Object.keys(v)) if (!known.includes(k)) fail(`${key}.${k}`, `unknown key (known: ${known.join(", ")})`);
    return v as Record<string, unknown>;
  };
  const str = (v: unknown, key: string): string => (typeof v === "string" && v !== "" ? v : fail(key, "expected a non-empty string"));
  const cost = (v: unknown, key: string): CostModel => (typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? v : fail(key, "expected a number or a mathjs expression"));
  const arr = (v: unknown, key: string): unknown[] => (Array.isArray(v) ? v : fail(key, "expected a list"));
  const top = obj(raw, "(top)", ["components", "callGraph", "interactions"]);
  const components: ComponentSpec[] = arr(top.components, "components").map((c, i) => {
    const k = `components[${i}]`;
    const o = obj(c, k, ["name", "implementations"]);
    const implementations: ImplementationSpec[] = arr(o.implementations, `${k}.implementations`).map((im, j) => {
      const kk = `${k}.implementations[${j}]`;
      const io = obj(im, kk, ["name", "mean", "sd", "qos"]);
      let qos: Record<string, number> | undefined;
      if (io.qos !== undefined) {
        const q = obj(io.qos, `${kk}.qos`, Object.keys(io.qos as object));
        qos = {};
        for (const [a, b] of Object.entries(q)) qos[a] = typeof b === "number" && Number.isFinite(b) ? b : fail(`${kk}.qos.${a}`, "expected a number");
      }
      return { name: str(io.name, `${kk}.name`), mean: cost(io.mean, `${kk}.mean`), sd: io.sd === undefined ? undefined : cost(io.sd, `${kk}.sd`), qos };
    });
    return { name: str(o.name, `${k}.name`), implementations };
  });
  const site = (v: unknown, key: string, depth: number): CallSite => {
    if (depth > 1000) fail(key, "call graph deeper than 1000 levels");
    const o = obj(v, key, ["component", "calls", "args", "children"]);
    let args: Record<string, CostModel> | undefined;
    if (o.args !== undefined) {
      const a = obj(o.args, `${key}.args`, Object.keys(o.args as object));
      args = {};
      for (const [n, e] of Object.entries(a)) args[n] = cost(e, `${key}.args.${n}`);
    }
    return {
      component: str(o.component, `${key}.component`),
      calls: o.calls === undefined ? undefined : cost(o.calls, `${key}.calls`),
      args,
      children: o.children === undefined ? undefined : arr(o.children, `${key}.children`).map((c, i) => site(c, `${key}.children[${i}]`, depth + 1)),
    };
  };
  const interactions: InteractionSpec[] | undefined =
    top.interactions === undefined
      ? undefined
      : arr(top.interactions, "interactions").map((it, i) => {
          const k = `interactions[${i}]`;
          const o = obj(it, k, ["caller", "callee", "costs"]);
          return {
            caller: str(o.caller, `${k}.caller`),
            callee: str(o.callee, `${k}.callee`),
            costs: arr(o.costs, `${k}.costs`).map((c, j) => {
              const co = obj(c, `${k}.costs[${j}]`, ["callerImpl", "calleeImpl", "cost"]);
              return { callerImpl: str(co.callerImpl, `${k}.costs[${j}].callerImpl`), calleeImpl: str(co.calleeImpl, `${k}.costs[${j}].calleeImpl`), cost: cost(co.cost, `${k}.costs[${j}].cost`) };
            }),
          };
        });
  const assembly: Assembly = { components, callGraph: site(top.callGraph, "callGraph", 0), interactions };
  // Why compile here: an unknown component in the call graph or a cost expression that does not
  // parse is the file's error, and should name the file, not surface later from a selection.
  try {
    prepareAssembly(assembly);
  } catch (e) {
    if (e instanceof AnalysisInputError && !e.message.startsWith(`${where}: `)) throw new AnalysisInputError(e.message, where);
    throw e;
  }
  return assembly;
}

/**
 * Reads an assembly from a YAML or JSON file.
 * @throws AnalysisInputError when the file cannot be read or parsed, or is not a valid assembly
 */
export function readAssemblyFile(path: string): Assembly {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new AnalysisInputError(`cannot read assembly file: ${fileErrorText(e)}`, path);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    // A profile given in its place is named for what it is.
    const measured = measurementFileKind(path);
    if (measured !== undefined) throw new AnalysisInputError(`this is ${measured}, not an assembly file: ccasim select reads an assembly in YAML or JSON (ccasim select --help); a profile is for ccasim profile, fit, prune or power`, path);
    throw new AnalysisInputError(`not valid YAML or JSON: ${(e as Error).message.split("\n")[0]}`, path);
  }
  // A scenario or a sweep file is named for what it is, not checked key by key.
  const otherKind = otherInputFileKindText(doc, path, "assembly");
  if (otherKind !== undefined) throw new AnalysisInputError(otherKind, path);
  return parseAssembly(doc, path);
}
