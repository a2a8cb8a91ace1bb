/**
 * Command-line overrides of scenario values (`--set machine.nodes=16`, `--set 'assembly.components.A.cost=x^3'`,
 * `--set connections[0]=...`): parsed into a key path and a YAML value, and applied to a copy of the
 * scenario value before validation.
 *
 * @packageDocumentation
 */
import { parse as parseYaml } from "yaml";
import { ScenarioError, ScenarioErrors, type KeyPath } from "./source.js";

/** One `key=value` override. */
export interface Override {
  /** The key path, from dotted text with `[i]` indices. */
  readonly path: readonly (string | number)[];
  /** The value, read as YAML (`16` is a number, `true` a boolean, `[a, b]` a list, `2.8GHz` a string). */
  readonly value: unknown;
  /** The override as written. */
  readonly text: string;
}

const SEGMENT = /^([^.[\]=]+)|^\.([^.[\]=]+)|^\[(\d+)\]/;

/**
 * Parses `key.path[2].name=value`. The value is read as YAML so numbers and lists keep their types.
 * @param where - names the source in errors (default `--set`)
 * @throws ScenarioErrors (an input error) for a missing `=`, an empty or malformed key, or a value that is not valid YAML
 */
export function parseOverride(text: string, where = "--set"): Override {
  const fail = (detail: string): never => {
    throw new ScenarioErrors([new ScenarioError(`${detail} in ${JSON.stringify(text)} (expected key.path=value)`, { file: where })], where);
  };
  const eq = text.indexOf("=");
  if (eq < 0) fail("missing '='");
  const key = text.slice(0, eq).trim();
  const path: (string | number)[] = [];
  let rest = key;
  while (rest.length > 0) {
    const m = SEGMENT.exec(rest);
    if (m === null || (m[1] !== undefined && path.length > 0)) return fail(`malformed key '${key}'`);
    path.push(m[3] !== undefined ? Number(m[3]) : (m[1] ?? m[2]).trim());
    rest = rest.slice(m[0].length);
  }
  if (path.length === 0) fail("empty key");
  let value: unknown;
  try {
    value = parseYaml(text.slice(eq + 1));
  } catch (e) {
    fail(`value is not valid YAML (${(e as Error).message.split("\n")[0]})`);
  }
  return { path, value: value === undefined ? null : value, text };
}

/**
 * A copy of `root` with `value` set at `path`, creating maps along the way (sequences must exist
 * to be indexed). `root` is not modified.
 * @throws ScenarioErrors (an input error) when the path goes through a value that is not a map or
 * list, or indexes past the end of a list
 */
export function applyOverride(root: unknown, path: KeyPath, value: unknown, where = "--set"): unknown {
  const set = (node: unknown, i: number): unknown => {
    if (i === path.length) return value;
    const k = path[i];
    if (typeof k === "number") {
      if (!Array.isArray(node) || k > node.length) {
        throw new ScenarioErrors([new ScenarioError(Array.isArray(node) ? `index ${k} is past the end of a list of ${node.length}` : "not a list", { file: where, path: path.slice(0, i + 1) })], where);
      }
      const copy = [...node];
      copy[k] = set(node[k], i + 1);
      return copy;
    }
    if (node !== undefined && node !== null && (typeof node !== "object" || Array.isArray(node))) {
      throw new ScenarioErrors([new ScenarioError(`cannot set a key inside ${Array.isArray(node) ? "a list" : JSON.stringify(node)}`, { file: where, path: path.slice(0, i) })], where);
    }
    const obj = (node ?? {}) as Record<string, unknown>;
    return { ...obj, [k]: set(obj[k], i + 1) };
  };
  return set(root, 0);
}
