import { describe, expect, it } from "vitest";
import { ScenarioErrors, applyOverride, parseOverride, s, validateValue } from "../../../scenarios/lang/index.js";
import { loadScenarioText } from "../../../scenarios/index.js";

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ScenarioErrors) return e.errors.map((x) => x.message).join("\n");
    throw e;
  }
  return "no error";
}

describe("command-line overrides", () => {
  it("parse dotted keys with indices and YAML values", () => {
    expect(parseOverride("machine.nodes=16")).toEqual({ path: ["machine", "nodes"], value: 16, text: "machine.nodes=16" });
    expect(parseOverride("assembly.components.A.cost=x^3").value).toBe("x^3");
    expect(parseOverride("connections[1].from=A.go").path).toEqual(["connections", 1, "from"]);
    expect(parseOverride("metrics=[TIME, PAPI_FP_INS]").value).toEqual(["TIME", "PAPI_FP_INS"]);
    expect(parseOverride("machine.clock=2.8GHz").value).toBe("2.8GHz");
    expect(parseOverride("name=").value).toBeNull();
  });

  it("reject malformed overrides", () => {
    expect(message(() => parseOverride("machine.nodes"))).toBe(`--set: missing '=' in "machine.nodes" (expected key.path=value)`);
    expect(message(() => parseOverride("=3"))).toBe(`--set: empty key in "=3" (expected key.path=value)`);
    expect(message(() => parseOverride("a..b=3"))).toBe(`--set: malformed key 'a..b' in "a..b=3" (expected key.path=value)`);
    expect(message(() => parseOverride("a=[1, 2"))).toMatch(/^--set: value is not valid YAML/);
  });

  it("apply to a copy, creating maps on the way", () => {
    const root = { machine: { nodes: 4 }, list: [{ a: 1 }] };
    expect(applyOverride(root, ["machine", "nodes"], 16)).toEqual({ machine: { nodes: 16 }, list: [{ a: 1 }] });
    expect(applyOverride(root, ["machine", "l2", "size"], "1MiB")).toEqual({ machine: { nodes: 4, l2: { size: "1MiB" } }, list: [{ a: 1 }] });
    expect(applyOverride(root, ["list", 0, "a"], 2)).toEqual({ machine: { nodes: 4 }, list: [{ a: 2 }] });
    expect(root).toEqual({ machine: { nodes: 4 }, list: [{ a: 1 }] });
    expect(message(() => applyOverride(root, ["list", 5], 1))).toBe("--set: list[5]: index 5 is past the end of a list of 1");
    expect(message(() => applyOverride(root, ["machine", "nodes", "x"], 1))).toBe("--set: machine.nodes: cannot set a key inside 4");
  });

  it("leave a scenario file that is not a map to be refused as such, at its line", () => {
    // A measured-times CSV given as the model reads as one text: the file is named, not the override.
    const csv = "name,workload.NAT,measured\nA,32,264s\n";
    expect(message(() => loadScenarioText(csv, "t.csv", { set: ["workload.NAT=32"] }))).toBe(`t.csv:1:1: expected a map, got "name,workload.NAT,measured A,32,264s"`);
    expect(message(() => loadScenarioText("- a\n", "l.yaml", { set: ["workload.x=1"] }))).toBe("l.yaml:1:1: expected a map, got a list");
  });

  it("feed validation, which then names the override's key", () => {
    const schema = s.object({ machine: s.object({ nodes: s.integer({ min: 1 }), clock: s.optional(s.quantity("frequency"), "1.5GHz") }) });
    const o = parseOverride("machine.nodes=0");
    expect(message(() => validateValue(schema, applyOverride({ machine: { nodes: 2 } }, o.path, o.value), "--set"))).toBe("--set: machine.nodes: must be at least 1, got 0");
    expect(validateValue(schema, { machine: { nodes: 2 } }, "x")).toEqual({ machine: { nodes: 2, clock: 1.5e9 } });
  });
});
