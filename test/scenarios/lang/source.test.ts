import { describe, expect, it } from "vitest";
import { ScenarioError, ScenarioErrors, errorAt, formatPath, parseYamlSource } from "../../../scenarios/lang/source.js";
import { scenarioErrorsOf as errorsOf } from "../fixtures.js";


const TEXT = `# a scenario
name: demo
machine:
  preset: itanium2
  nodes: 4
assembly:
  components:
    - name: A
      type: kernel
    - name: B
      type: halo
`;

describe("located YAML sources", () => {
  it("gives the plain value", () => {
    const doc = parseYamlSource(TEXT, "s.yaml");
    expect(doc.value).toEqual({
      name: "demo",
      machine: { preset: "itanium2", nodes: 4 },
      assembly: { components: [{ name: "A", type: "kernel" }, { name: "B", type: "halo" }] },
    });
  });

  it("locates keys of map entries and items of sequences (1-based)", () => {
    const doc = parseYamlSource(TEXT, "s.yaml");
    expect(doc.locate([])).toEqual({ line: 1, column: 1 });
    expect(doc.locate(["name"])).toEqual({ line: 2, column: 1 });
    expect(doc.locate(["machine", "nodes"])).toEqual({ line: 5, column: 3 });
    expect(doc.locate(["assembly", "components", 1])).toEqual({ line: 10, column: 7 });
    expect(doc.locate(["assembly", "components", 1, "type"])).toEqual({ line: 11, column: 7 });
    expect(doc.locateValue?.(["machine", "nodes"])).toEqual({ line: 5, column: 10 });
    expect(doc.locate(["machine", "clock"])).toBeUndefined();
    expect(doc.locate(["assembly", "components", 5])).toBeUndefined();
    expect(doc.locate(["name", "x"])).toBeUndefined();
  });

  it("resolves anchors, aliases and merge keys, and locates through them", () => {
    const text = `base: &b
  nodes: 4
  clock: 1.5GHz
machine:
  <<: *b
  nodes: 8
copy: *b
`;
    const doc = parseYamlSource(text, "m.yaml");
    expect(doc.value).toEqual({
      base: { nodes: 4, clock: "1.5GHz" },
      machine: { nodes: 8, clock: "1.5GHz" },
      copy: { nodes: 4, clock: "1.5GHz" },
    });
    expect(doc.locate(["machine", "nodes"])).toEqual({ line: 6, column: 3 });
    expect(doc.locate(["machine", "clock"])).toEqual({ line: 3, column: 3 });
    expect(doc.locate(["copy", "clock"])).toEqual({ line: 3, column: 3 });
  });

  it("locates entries of flow maps and quoted keys", () => {
    const doc = parseYamlSource('machine: {nodes: 4, "clock rate": 2GHz}\nlist: [a, {b: 1}]\n', "f.yaml");
    expect(doc.locate(["machine", "nodes"])).toEqual({ line: 1, column: 11 });
    expect(doc.locate(["machine", "clock rate"])).toEqual({ line: 1, column: 21 });
    expect(doc.locate(["list", 1, "b"])).toEqual({ line: 2, column: 12 });
  });

  it("reports every syntax error and duplicate key, located", () => {
    const err = errorsOf(() => parseYamlSource("a: 1\nb: 2\na: 3\nc: [1, 2\n", "bad.yaml"));
    expect(err.isInputError).toBe(true);
    expect(err.errors.length).toBeGreaterThanOrEqual(2);
    expect(err.errors[0].message).toBe("bad.yaml:3:1: duplicate key 'a': map keys must be unique");
    expect(err.errors[1].file).toBe("bad.yaml");
    // The list left open is named at the line that opens it, not where the parser gave up.
    expect(err.errors[1].message).toBe("bad.yaml:4:4: a '[' opened on this line is not closed: end it with ']' (its continuation lines indented beyond the key)");
    expect(err.message.split("\n")[0]).toBe(`bad.yaml: ${err.errors.length} errors`);
  });

  it("names a duplicate key in full, in block and flow maps", () => {
    const block = errorsOf(() => parseYamlSource("axes:\n  workload.Q: [1]\n  workload.Q: [2]\n", "dup.yaml"));
    expect(block.errors[0].message).toBe("dup.yaml:3:3: duplicate key 'workload.Q': map keys must be unique");
    const flow = errorsOf(() => parseYamlSource('w: { abc: 1, "abc": 2 }\n', "dup.yaml"));
    expect(flow.errors[0].message).toBe("dup.yaml:1:14: duplicate key 'abc': map keys must be unique");
  });

  it("locates a bad indentation at the line that has it, once, in words", () => {
    const err = errorsOf(() => parseYamlSource("machine:\n  nodes: 4\n   clock: 2GHz\n", "i.yaml"));
    expect(err.errors.map((e) => e.message)).toEqual([
      "i.yaml:3:4: this line is indented by 3 spaces, more than the key on line 2 (2), so YAML reads it as part of that key's value: keys of one map start at the same column",
    ]);
    const less = errorsOf(() => parseYamlSource("machine:\n  preset: x\n nodes: 4\n", "i.yaml"));
    expect(less.errors.map((e) => e.message)).toEqual(["i.yaml:3:2: this line starts at column 2, where no key of the map above does: keys of one map start at the same column"]);
  });

  it("blames no valid multi-line flow list or map for a later slip, and leaves a quote error to the parser", () => {
    const list = errorsOf(() => parseYamlSource("workload:\n  list: [1, 2,\n    3]\n  x: 3\n iterations: 100\n", "v.yaml"));
    expect(list.errors.map((e) => e.message)).toEqual(["v.yaml:5:2: this line starts at column 2, where no key of the map above does: keys of one map start at the same column"]);
    const quote = errorsOf(() => parseYamlSource('workload:\n  list: { a: 1,\n    b: 2 }\n  x: 3\n  y: "abc\n', "q.yaml"));
    expect(quote.errors[0].message).toMatch(/^q\.yaml:\d+:\d+: Missing closing "quote/);
  });

  it("names a list item whose colon is missing, with the key it likely meant", () => {
    const err = errorsOf(() => parseYamlSource("main:\n  - action D\n    cost: 1\n", "c.yaml"));
    expect(err.errors.map((e) => e.message)).toEqual(["c.yaml:2:5: this list item has no ':', so the keys indented under it on line 3 cannot belong to it (did you mean 'action: D'?)"]);
  });

  it("locates a flow map or list left open at the line that opens it", () => {
    const map = errorsOf(() => parseYamlSource("name: x\nmachine: { preset: p, nodes: 4\nmetrics: [TIME]\n", "b.yaml"));
    expect(map.errors[0].message).toBe("b.yaml:2:10: a '{' opened on this line is not closed: end it with '}' (its continuation lines indented beyond the key)");
    const list = errorsOf(() => parseYamlSource("name: x\nmetrics: [TIME, PAPI_TOT_CYC\nworkload: { a: 1 }\n", "b.yaml"));
    expect(list.errors[0].message).toBe("b.yaml:2:10: a '[' opened on this line is not closed: end it with ']' (its continuation lines indented beyond the key)");
  });

  it("treats an empty file as null", () => {
    expect(parseYamlSource("", "e.yaml").value).toBeNull();
    expect(parseYamlSource("# only a comment\n", "e.yaml").value).toBeNull();
  });
});

describe("located errors", () => {
  it("format as file:line:column: path: what is wrong, leaving out unknown parts", () => {
    expect(new ScenarioError("bad", { file: "s.yaml", line: 3, column: 5, path: ["a", "b", 2, "c"] }).message).toBe("s.yaml:3:5: a.b[2].c: bad");
    expect(new ScenarioError("bad", { file: "s.yaml", path: "a.b" }).message).toBe("s.yaml: a.b: bad");
    expect(new ScenarioError("bad", { file: "s.yaml", line: 3 }).message).toBe("s.yaml:3: bad");
    expect(new ScenarioError("bad", { path: ["x"] }).message).toBe("x: bad");
    expect(new ScenarioError("bad").message).toBe("bad");
    const e = new ScenarioError("bad", { file: "f", line: 1, column: 2, path: ["k"] });
    expect([e.file, e.line, e.column, e.path, e.detail, e.isInputError]).toEqual(["f", 1, 2, "k", "bad", true]);
  });

  it("can be made for any path of a document, falling back to the nearest entry present", () => {
    const doc = parseYamlSource(TEXT, "s.yaml");
    expect(errorAt(doc, ["machine", "nodes"], "too many").message).toBe("s.yaml:5:10: machine.nodes: too many");
    expect(errorAt(doc, ["machine", "nodes"], "renamed", "key").message).toBe("s.yaml:5:3: machine.nodes: renamed");
    expect(errorAt(doc, ["assembly", "components", 0, "ports", "go"], "no such port").message).toBe("s.yaml:8:7: assembly.components[0].ports.go: no such port");
  });

  it("render paths with dots, indices and quoted odd keys", () => {
    expect(formatPath(["assembly", "components", "A", "type"])).toBe("assembly.components.A.type");
    expect(formatPath(["connections", 2, "from"])).toBe("connections[2].from");
    expect(formatPath(["proxies", "A.go", "params"])).toBe('proxies["A.go"].params');
    expect(formatPath([])).toBe("");
  });

  it("are listed in file order under a summary line", () => {
    const errs = new ScenarioErrors([
      new ScenarioError("third", { file: "s.yaml", line: 9, column: 1 }),
      new ScenarioError("no line", { file: "s.yaml" }),
      new ScenarioError("first", { file: "s.yaml", line: 2, column: 4 }),
    ]);
    expect(errs.message).toBe("s.yaml: 3 errors\n  s.yaml:2:4: first\n  s.yaml:9:1: third\n  s.yaml: no line");
    expect(new ScenarioErrors([new ScenarioError("x", { file: "a" })]).message).toBe("a: 1 error\n  a: x");
  });
});
