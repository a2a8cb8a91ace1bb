import { didYouMean, type ParamDoc } from "../engine/index.js";
import type { PrepareEnv } from "./component.js";

/**
 * Checks the parameters of a component instance whose documentation fixes their kind: an `enum`
 * must be one of its values, a `boolean` true or false, an `integer` or `number` a finite number
 * within its bounds. Other kinds (expressions, lists, maps, strings, quantities) are left to the
 * component's own `prepare`, which knows their structure, but none may be null (a key written with
 * no value). Without this, a component that reads `p.order === "calls-first"` or
 * `p.periodic === true` takes a misspelt value for the default, and one that reads
 * `p.patterns ?? {}` takes an empty value for the default.
 * @param error - reports a problem of parameter `key` (never returns)
 */
export function checkDocumentedParams(params: Readonly<Record<string, unknown>>, docs: readonly ParamDoc[], error: (key: string, message: string) => never): void {
  for (const doc of docs) {
    if (!Object.hasOwn(params, doc.name)) continue;
    const v = params[doc.name];
    if (v === null && doc.type in KIND_TEXT) error(doc.name, `expected ${KIND_TEXT[doc.type as keyof typeof KIND_TEXT]}, got null (an empty value): give a value or leave the key out`);
    switch (doc.type) {
      case "enum": {
        const values = doc.values ?? [];
        if (typeof v !== "string" || !values.includes(v)) error(doc.name, `expected ${alternatives(values)}, got ${JSON.stringify(v)}${typeof v === "string" ? didYouMean(v, values) : ""}`);
        break;
      }
      case "boolean":
        if (typeof v !== "boolean") error(doc.name, `expected true or false, got ${JSON.stringify(v)}`);
        break;
      case "integer":
      case "number": {
        const integer = doc.type === "integer";
        const ok = typeof v === "number" && Number.isFinite(v) && (!integer || Number.isInteger(v));
        if (!ok || (doc.min !== undefined && v < doc.min) || (doc.max !== undefined && v > doc.max)) {
          const range = doc.min !== undefined && doc.max !== undefined ? ` in [${doc.min}, ${doc.max}]` : doc.min !== undefined ? ` >= ${doc.min}` : doc.max !== undefined ? ` <= ${doc.max}` : "";
          error(doc.name, `expected ${integer ? "an integer" : "a number"}${range}, got ${JSON.stringify(v)}`);
        }
        break;
      }
      default:
        break;
    }
  }
}

/** What a parameter of each kind that {@link checkDocumentedParams} leaves to `prepare` holds, for its message. */
const KIND_TEXT = {
  expression: "a number or an expression",
  list: "a list",
  map: "a map",
  string: "text",
  quantity: "a quantity",
} as const;

/** `a, b or c`. */
function alternatives(values: readonly string[]): string {
  return values.length <= 1 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
}

/**
 * Rejects keys of `p` not in `keys`, suggesting the nearest known one and naming them all.
 * @param what - what `p` is, for the message ("a kernel component", "a front")
 * @param prefix - key path of `p` within the component's parameters (`fronts[0].`)
 */
export function checkKeys(env: PrepareEnv, p: Readonly<Record<string, unknown>>, keys: readonly string[], what: string, prefix = ""): void {
  for (const k of Object.keys(p)) if (!keys.includes(k)) env.error(prefix + k, `unknown parameter '${k}'${didYouMean(k, keys)} of ${what}; parameters: ${keys.join(", ")}`);
}

/**
 * `params` with the declared default (`ParamDoc.default`) of every documented parameter they leave
 * out: the settings an instance runs with, as far as its type declares them (a default described
 * only in a parameter's text, of an `optional` one, is not filled in).
 */
export function withDeclaredDefaults(params: Readonly<Record<string, unknown>>, docs: readonly ParamDoc[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const doc of docs) if (!(doc.name in out) && doc.default !== undefined) out[doc.name] = doc.default;
  return out;
}
