import { parse as parseYaml } from "yaml";
import type { KeyPath } from "./lang/index.js";

/** A `--set key=value` override: a key path into the scenario and a YAML scalar or flow value. */
export interface Override {
  readonly text: string;
  readonly path: KeyPath;
  readonly value: unknown;
}

/** An override that cannot be parsed. An input error. */
export class OverrideError extends Error {
  readonly isInputError = true;
  constructor(readonly text: string, detail: string) {
    super(`--set ${text}: ${detail}`);
    this.name = "OverrideError";
  }
}

/**
 * Parses `key=value` (for example `workload.x=3`, `machine.l2.size=256KiB`,
 * `assembly.components.A.params.implementation=A2`, `metrics=[TIME,PAPI_TOT_CYC]`). The value is
 * read as YAML, so numbers are numbers and `[a, b]` is a list.
 * @throws OverrideError for a missing `=` or an empty key
 */
export function parseOverride(text: string): Override {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new OverrideError(text, "expected key=value, for example workload.x=3");
  const key = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1);
  const path: (string | number)[] = [];
  for (const part of key.split(".")) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new OverrideError(text, `cannot read the key '${key}'`);
    path.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) path.push(Number(idx[1]));
  }
  let value: unknown;
  try {
    value = raw.trim() === "" ? "" : parseYaml(raw);
  } catch (e) {
    throw new OverrideError(text, `cannot read the value: ${(e as Error).message.split("\n")[0]}`);
  }
  return { text, path, value };
}

/**
 * Applies overrides to a plain value tree (a copy is returned; the input is untouched). Missing
 * intermediate maps are created.
 * @throws OverrideError when a path goes through something that is not a map or list
 */
export function applyOverrides(value: unknown, overrides: readonly Override[]): unknown {
  const root = structuredClone(value ?? {}) as Record<string | number, unknown>;
  for (const o of overrides) {
    let node: Record<string | number, unknown> = root;
    for (let i = 0; i < o.path.length - 1; i++) {
      const k = o.path[i];
      let next = node[k];
      if (next === undefined || next === null) node[k] = next = typeof o.path[i + 1] === "number" ? [] : {};
      if (typeof next !== "object") throw new OverrideError(o.text, `'${o.path.slice(0, i + 1).join(".")}' is ${JSON.stringify(next)}, not a map`);
      node = next as Record<string | number, unknown>;
    }
    node[o.path[o.path.length - 1]] = o.value;
  }
  return root;
}
