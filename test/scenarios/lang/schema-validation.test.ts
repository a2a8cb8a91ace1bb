import { describe, expect, it } from "vitest";
import type { ParamDoc } from "../../../engine/params.js";
import { ScenarioErrors, parseYamlSource, s, validate, validateValue, type Schema } from "../../../scenarios/lang/index.js";

/** The messages of the ScenarioErrors thrown by `fn`. */
function messages(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ScenarioErrors) return e.errors.map((x) => x.message);
    throw e;
  }
  throw new Error("expected ScenarioErrors");
}

const kernel = s.object(
  {
    type: s.literal("kernel"),
    elements: s.integer({ min: 1, doc: "Q: elements per invocation" }),
    stride: s.optional(s.integer({ min: 1 }), 1),
    cost: s.optional(s.expression({ known: ["Q", "P"] })),
  },
  { doc: "a compute kernel" },
);
const halo = s.object({ type: s.literal("halo"), message: s.quantity("bytes", { min: 1 }), latency: s.optional(s.quantity("time"), 5) });

const scenario: Schema = s.object({
  name: s.string({ pattern: "^[a-z][a-z0-9-]*$" }),
  seed: s.optional(s.integer({ min: 0 }), 1),
  machine: s.object({
    preset: s.enumOf(["itanium2", "opteron", "generic"]),
    nodes: s.integer({ min: 1 }),
    processorsPerNode: s.optional(s.integer({ min: 1 }), 1),
    clock: s.optional(s.quantity("frequency", { min: 1e6 }), 1.5e9),
    l2: s.optional(s.object({ size: s.quantity("bytes"), line: s.optional(s.quantity("bytes"), 128) }), { size: 262144, line: 128 }),
  }),
  components: s.record(s.union([kernel, halo], { discriminator: "type" }), { keyPattern: "^[A-Z][A-Za-z0-9]*$" }),
  connections: s.optional(s.array(s.string({ pattern: "^\\w+\\.\\w+ -> \\w+\\.\\w+$" }), { minItems: 1 }), []),
  metrics: s.optional(s.array(s.enumOf(["TIME", "PAPI_FP_INS", "PAPI_L2_DCM"])), ["TIME"]),
});

const GOOD = `name: shock-amr
machine:
  preset: itanium2
  nodes: 4
  clock: 1.3GHz
components:
  States:
    type: kernel
    elements: 1000
    cost: exp(1.19*log(Q) - 3.68)
  Ghost:
    type: halo
    message: 64KiB
connections:
  - Driver.go -> States.compute
`;

describe("validation of located documents", () => {
  it("converts quantities, fills defaults and keeps expressions as text", () => {
    const v = validate(scenario, parseYamlSource(GOOD, "s.yaml"));
    expect(v).toEqual({
      name: "shock-amr",
      seed: 1,
      machine: { preset: "itanium2", nodes: 4, processorsPerNode: 1, clock: 1.3e9, l2: { size: 262144, line: 128 } },
      components: {
        States: { type: "kernel", elements: 1000, stride: 1, cost: "exp(1.19*log(Q) - 3.68)" },
        Ghost: { type: "halo", message: 65536, latency: 5 },
      },
      connections: ["Driver.go -> States.compute"],
      metrics: ["TIME"],
    });
  });

  it("fills nested defaults below a given parent", () => {
    const v = validate<{ machine: { l2: unknown } }>(scenario, parseYamlSource(GOOD.replace("  clock: 1.3GHz\n", "  l2:\n    size: 1MiB\n"), "s.yaml"));
    expect(v.machine.l2).toEqual({ size: 1048576, line: 128 });
  });

  it("does not share default objects between results", () => {
    const a = validate<{ metrics: string[] }>(scenario, parseYamlSource(GOOD, "s.yaml"));
    a.metrics.push("PAPI_FP_INS");
    const b = validate<{ metrics: string[] }>(scenario, parseYamlSource(GOOD, "s.yaml"));
    expect(b.metrics).toEqual(["TIME"]);
  });

  it("collects every error at once, each located at its key or value", () => {
    const text = `name: Shock
seeed: 3
machine:
  preset: itanum2
  nodes: 0
  procesorsPerNode: 2
  clock: 2.8G
components:
  States:
    type: kernel
    elements: 10.5
    cost: 2*Qq + P
  ghost:
    type: halo
    message: 64KiB
  Reg:
    type: kernal
  Ex:
    elements: 3
connections: []
metrics: [TIME, PAPI_L3_DCM]
`;
    expect(messages(() => validate(scenario, parseYamlSource(text, "s.yaml")))).toEqual([
      's.yaml:1:7: name: expected a string matching /^[a-z][a-z0-9-]*$/, got "Shock"',
      "s.yaml:2:1: seeed: unknown key 'seeed' (did you mean 'seed'?)",
      `s.yaml:4:11: machine.preset: expected one of 'itanium2', 'opteron', 'generic', got "itanum2" (did you mean 'itanium2'?)`,
      "s.yaml:5:10: machine.nodes: must be at least 1, got 0",
      "s.yaml:6:3: machine.procesorsPerNode: unknown key 'procesorsPerNode' (did you mean 'processorsPerNode'?)",
      's.yaml:7:10: machine.clock: expected a frequency such as 2.8GHz or 700MHz, got "2.8G" (ambiguous: use GHz)',
      "s.yaml:11:15: components.States.elements: expected an integer, got 10.5",
      `s.yaml:12:11: components.States.cost: unknown symbol 'Qq' (did you mean 'Q'?) in expression "2*Qq + P"; known: P, Q`,
      "s.yaml:13:3: components.ghost: key 'ghost' does not match /^[A-Z][A-Za-z0-9]*$/",
      "s.yaml:17:11: components.Reg.type: unknown type 'kernal' (did you mean 'kernel'?); expected one of: kernel, halo",
      "s.yaml:18:3: components.Ex.type: missing required key 'type' (one of: kernel, halo)",
      "s.yaml:20:14: connections: expected at least 1 item, got 0",
      's.yaml:21:17: metrics[1]: expected one of \'TIME\', \'PAPI_FP_INS\', \'PAPI_L2_DCM\', got "PAPI_L3_DCM" (did you mean \'PAPI_L2_DCM\'?)',
    ]);
  });

  it("locates a missing required key at its parent object and names what it should hold", () => {
    const text = "name: x\nmachine:\n  preset: generic\ncomponents: {}\n";
    expect(messages(() => validate(scenario, parseYamlSource(text, "s.yaml")))).toEqual([
      "s.yaml:2:1: machine.nodes: missing required key 'nodes' (an integer)",
    ]);
  });

  it("names the expected type and the value found", () => {
    const text = "name: x\nmachine: [1, 2]\ncomponents:\n  A: 3\n";
    expect(messages(() => validate(scenario, parseYamlSource(text, "s.yaml")))).toEqual([
      "s.yaml:2:10: machine: expected a map, got a list",
      "s.yaml:4:6: components.A: expected a map with a 'type' key, got 3",
    ]);
    expect(messages(() => validate(scenario, parseYamlSource("", "e.yaml")))).toEqual(["e.yaml:1:1: expected a map, got null (an empty value)"]);
  });

  it("points syntax errors in expressions at the offending character", () => {
    const text = `name: x\nmachine: {preset: generic, nodes: 1}\ncomponents:\n  A:\n    type: kernel\n    elements: 4\n    cost: "2*Q )"\n`;
    expect(messages(() => validate(scenario, parseYamlSource(text, "s.yaml")))).toEqual([
      's.yaml:7:16: components.A.cost: syntax error: Unexpected operator ) (char 5) in expression "2*Q )"',
    ]);
  });

  it("validates the part of a document under a root path, naming full paths", () => {
    const doc = parseYamlSource("outer:\n  machine:\n    preset: generic\n    nodes: -1\n", "p.yaml");
    const machine = (scenario as { fields: Record<string, Schema> }).fields.machine;
    expect(messages(() => validate(machine, doc, ["outer", "machine"]))).toEqual(["p.yaml:4:12: outer.machine.nodes: must be at least 1, got -1"]);
  });

  it("suggests nothing for a far-off key but lists the allowed ones", () => {
    const schema = s.object({ alpha: s.number(), beta: s.optional(s.number()) });
    expect(messages(() => validateValue(schema, { alpha: 1, zzzzzzzz: 2 }, "--set"))).toEqual(["--set: zzzzzzzz: unknown key 'zzzzzzzz'; allowed keys: alpha, beta"]);
  });
});

describe("validation of plain values", () => {
  it("converts --set style overrides and names the file and path", () => {
    const clock = s.quantity("frequency");
    expect(validateValue(clock, "2GHz", "--set", undefined, ["machine", "clock"])).toBe(2e9);
    expect(messages(() => validateValue(clock, "2GB", "--set", undefined, ["machine", "clock"]))).toEqual([
      "--set: machine.clock: expected a frequency such as 2.8GHz or 700MHz, got \"2GB\" ('GB' is a unit of size, not of frequency)",
    ]);
  });

  it("accepts numbers as expressions and turns them into text", () => {
    expect(validateValue(s.expression(), 42, "x")).toBe("42");
    expect(messages(() => validateValue(s.expression(), true, "x"))).toEqual(["x: expected an expression such as 2*x or exp(1.19*log(Q) - 3.68), got true"]);
  });

  it("applies number bounds and integer checks", () => {
    expect(messages(() => validateValue(s.number({ max: 1 }), 2, "f"))).toEqual(["f: must be at most 1, got 2"]);
    expect(messages(() => validateValue(s.number(), Number.POSITIVE_INFINITY, "f"))).toEqual(["f: expected a number, got Infinity"]);
    expect(messages(() => validateValue(s.quantity("bytes", { max: 1024 }), "2KiB", "f"))).toEqual(["f: must be at most 1KiB, got 2KiB"]);
    expect(validateValue(s.quantity("time", { min: -10 }), "-5us", "f")).toBe(-5);
  });

  it("refuses an integer a number does not hold exactly, whose digits were lost in reading", () => {
    expect(validateValue(s.integer(), Number.MAX_SAFE_INTEGER, "n")).toBe(Number.MAX_SAFE_INTEGER);
    expect(validateValue(s.integer(), -Number.MAX_SAFE_INTEGER, "n")).toBe(-Number.MAX_SAFE_INTEGER);
    // 12345678901234567891 reads as 12345678901234567000, as does 12345678901234567892.
    const doc = parseYamlSource("seed: 12345678901234567891\n", "s.yaml");
    expect(messages(() => validate(s.object({ seed: s.union([s.integer(), s.string()]) }), doc))).toEqual([
      "s.yaml:1:7: seed: expected an integer, got 12345678901234567000, which is beyond ±9007199254740991 (2^53 - 1), where a number no longer holds every integer: the digits written are not the ones read",
    ]);
    expect(validate(s.object({ seed: s.union([s.integer(), s.string()]) }), parseYamlSource("seed: '12345678901234567891'\n", "s.yaml"))).toEqual({ seed: "12345678901234567891" });
  });

  it("picks the first union option that fits, and blames the option of the same type otherwise", () => {
    const u = s.union([s.quantity("bytes"), s.object({ min: s.quantity("bytes"), max: s.quantity("bytes") })]);
    expect(validateValue(u, "1KiB", "f")).toBe(1024);
    expect(validateValue(u, { min: "1KiB", max: "2KiB" }, "f")).toEqual({ min: 1024, max: 2048 });
    expect(messages(() => validateValue(u, { min: "1KiB", max: "2K" }, "f"))).toEqual(['f: max: expected a size such as 512KiB or 64B, got "2K" (ambiguous: use KiB or KB)']);
    expect(messages(() => validateValue(u, true, "f"))).toEqual(["f: expected a size such as 512KiB or 64B or a map, got true"]);
  });

  it("runs refinements on valid values only, locating their reports", () => {
    const range = s.refine(s.object({ lo: s.number(), hi: s.number() }), (v: { lo: number; hi: number }, report) => {
      if (v.lo > v.hi) report(`lo (${v.lo}) exceeds hi (${v.hi})`, ["lo"]);
    });
    expect(validateValue(range, { lo: 1, hi: 2 }, "r")).toEqual({ lo: 1, hi: 2 });
    expect(messages(() => validateValue(range, { lo: 3, hi: 2 }, "r"))).toEqual(["r: lo: lo (3) exceeds hi (2)"]);
    expect(messages(() => validateValue(range, { lo: "a", hi: 2 }, "r"))).toEqual(['r: lo: expected a number, got "a"']);
  });

  it("validates recursive schemas through lazy references", () => {
    const tree: Schema = s.lazy("node", () => s.object({ name: s.string(), children: s.optional(s.array(tree), []) }));
    expect(validateValue(tree, { name: "a", children: [{ name: "b" }] }, "t")).toEqual({ name: "a", children: [{ name: "b", children: [] }] });
    expect(messages(() => validateValue(tree, { name: "a", children: [{ nam: "b" }] }, "t"))).toEqual(["t: children[0].nam: unknown key 'nam' (did you mean 'name'?)"]);
  });

  it("takes values of undeclared keys from `additional` when given", () => {
    const o = s.object({ kind: s.string() }, { additional: s.quantity("time") });
    expect(validateValue(o, { kind: "x", a: "1ms", b: "2us" }, "f")).toEqual({ kind: "x", a: 1000, b: 2 });
  });
});

describe("schemas from parameter docs", () => {
  const params: ParamDoc[] = [
    { name: "clock", type: "quantity", dimension: "frequency", doc: "core clock", default: 1.5e9 },
    { name: "cores", type: "integer", doc: "cores per node", min: 1 },
    { name: "l2.size", type: "quantity", dimension: "bytes", doc: "L2 size", default: 262144 },
    { name: "l2.policy", type: "enum", values: ["lru", "random"], doc: "replacement", default: "lru" },
    { name: "l3.size", type: "quantity", dimension: "bytes", doc: "L3 size" },
    { name: "noise", type: "number", doc: "relative noise", optional: true, min: 0 },
    { name: "smt", type: "boolean", doc: "hyper-threading", default: false },
    { name: "cost", type: "expression", doc: "cost model", default: "2*x" },
    { name: "label", type: "string", doc: "a label", optional: true },
  ];
  const schema = s.fromParams(params);

  it("nests dotted names, fills defaults and requires parameters without one", () => {
    expect(validateValue(schema, { cores: 4, l3: { size: "9MiB" } }, "p")).toEqual({
      clock: 1.5e9,
      cores: 4,
      l2: { size: 262144, policy: "lru" },
      l3: { size: 9437184 },
      smt: false,
      cost: "2*x",
    });
    expect(messages(() => validateValue(schema, { l2: { sise: "1MiB" } }, "p"))).toEqual([
      "p: cores: missing required key 'cores' (an integer)",
      "p: l2.sise: unknown key 'sise' (did you mean 'size'?)",
      "p: l3: missing required key 'l3' (a map)",
    ]);
  });

  it("takes structured values for list and map parameters, and only those", () => {
    const structured = s.fromParams([
      { name: "domain", type: "list", doc: "[width, height]", default: [480, 160] },
      { name: "work", type: "map", doc: "per-element work", optional: true },
    ]);
    expect(validateValue(structured, { work: { loads: 3, stores: 1 } }, "p")).toEqual({ domain: [480, 160], work: { loads: 3, stores: 1 } });
    expect(validateValue(structured, { domain: [[1, 2], { w: 3 }] }, "p")).toEqual({ domain: [[1, 2], { w: 3 }] });
    expect(messages(() => validateValue(structured, { domain: "480x160", work: [1] }, "p"))).toEqual(["p: domain: expected a list, got \"480x160\"", "p: work: expected a map, got a list"]);
  });

  it("rejects a name that is both a parameter and a group", () => {
    expect(() =>
      s.fromParams([
        { name: "l2", type: "integer", doc: "x" },
        { name: "l2.size", type: "integer", doc: "y" },
      ]),
    ).toThrow(/also a parameter|also a group/);
  });
});
