import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { componentTypes, loadScenarioText, loadSweepText, scenarioJsonSchema, sweepJsonSchema } from "../../index.js";
import { MIXED_SCENARIO } from "./fixtures.js";
import { objectionsTo } from "./json-schema-objections.js";

const SCENARIOS = join(import.meta.dirname, "..", "..", "scenarios");
/** The JSON Schema's objections to `doc`, as `path: message` lines (empty when it accepts it). */
const objections = objectionsTo(scenarioJsonSchema());

/** MIXED_SCENARIO with `edit` applied to its parsed document. */
function edited(edit: (doc: Record<string, any>) => void): Record<string, any> {
  const doc = parse(MIXED_SCENARIO) as Record<string, any>;
  edit(doc);
  return doc;
}

describe("the JSON Schema 'ccasim schema' prints", () => {
  it("accepts every shipped scenario and the test scenario, with machine overrides and removed levels", () => {
    const files = readdirSync(SCENARIOS).filter((f) => f.endsWith(".yaml") && !f.includes(".sweep.") && !f.includes(".assembly."));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) expect(objections(parse(readFileSync(join(SCENARIOS, f), "utf8"))), f).toEqual([]);
    expect(objections(parse(MIXED_SCENARIO))).toEqual([]);
    const overridden = edited((d) => {
      d.machine.l2 = { size: "256KiB", assoc: 4 };
      d.machine.memory = { latency: "120ns" };
      d.machine.network = { preset: "gigabit-ethernet", eagerLimit: "16KiB", model: "loggp" };
      d.machine.l3 = null;
      d.machine.computeEfficiency = 0.4;
    });
    expect(objections(overridden)).toEqual([]);
    // Sizes that count in powers of two take the binary units; a node's memory takes either.
    expect(objections(edited((d) => (d.machine.l2 = { size: "0.5MiB", line: "128B" })))).toEqual([]);
    expect(objections(edited((d) => (d.machine.memory = { size: "2GB" })))).toEqual([]);
    expect(() => loadScenarioText(JSON.stringify(overridden), "overridden.json")).not.toThrow();
  });

  it("objects where the loader does: misspelt machine keys, unknown presets, component types and parameters, values out of range", () => {
    const cases: [string, (d: Record<string, any>) => void, string][] = [
      ["a misspelt cache key", (d) => (d.machine.l2 = { sise: "256KiB" }), "/machine/l2"],
      ["a dotted machine key (for --set, not files)", (d) => (d.machine["l2.size"] = "256KiB"), "/machine"],
      ["a misspelt network key", (d) => (d.machine.network = { preset: "gigabit-ethernet", eagerLimt: 3 }), "/machine/network"],
      ["an unknown machine preset", (d) => (d.machine.preset = "xeon"), "/machine/preset"],
      ["an unknown interconnect preset", (d) => (d.machine.network = { preset: "ethernet" }), "/machine/network/preset"],
      ["an efficiency above 1", (d) => (d.machine.computeEfficiency = 1.5), "/machine/computeEfficiency"],
      ["a size without a unit where one is needed", (d) => (d.machine.memory = { latency: "fast" }), "/machine/memory/latency"],
      ["a cache size with a decimal unit", (d) => (d.machine.l2 = { size: "512KB" }), "/machine/l2"],
      ["a page size with a decimal unit", (d) => (d.machine.tlb = { pageSize: "4kB" }), "/machine/tlb/pageSize"],
      ["a line size in bits", (d) => (d.machine.l1 = { line: "64Mb" }), "/machine/l1"],
      ["an unknown component type", (d) => (d.assembly.components.Model.type = "dumy"), "/assembly/components/Model/type"],
      ["an unknown parameter of a component", (d) => (d.assembly.components.Model.params.costt = 3), "/assembly/components/Model/params"],
      ["a misspelt metric", (d) => (d.metrics = ["TIME", "PAPI_TOT_CYCLES"]), "/metrics/1"],
      ["a metric listed twice", (d) => (d.metrics = ["TIME", "PAPI_TOT_CYC", "PAPI_TOT_CYC"]), "/metrics"],
      ["TIME not first", (d) => (d.metrics = ["PAPI_TOT_CYC", "TIME"]), "/metrics/0"],
      ["a workload variable named as the rank", (d) => (d.workload = { ...d.workload, rank: 3 }), "/workload"],
      ["neither an assembly nor a program", (d) => delete d.assembly, ""],
      ["both an assembly and a program", (d) => (d.program = parse(readFileSync(join(SCENARIOS, "prophet-sample.yaml"), "utf8")).program), ""],
    ];
    for (const [what, edit, path] of cases) {
      const doc = edited(edit);
      expect(objections(doc).some((o) => (path === "" ? o.startsWith(": ") : o.startsWith(path))), `${what}: ${objections(doc).join("; ")}`).toBe(true);
      expect(() => loadScenarioText(JSON.stringify(doc), "bad.json"), what).toThrow();
    }
  });
});

describe("the JSON Schema of component parameters that are lists", () => {
  const schema = scenarioJsonSchema() as Record<string, any>;
  /** The JSON Schema of component type `type`'s parameter `name`. */
  const paramJson = (type: string, name: string): Record<string, any> => {
    const component = schema.properties.assembly.properties.components.additionalProperties;
    const branch = component.allOf.find((b: Record<string, any>) => b.if.properties.type.const === type);
    return branch.then.properties.params.properties[name];
  };

  it("types the items of every list parameter of every component type, as its registration documents them", () => {
    const lists = componentTypes.all().flatMap((t) => t.params.filter((p) => p.type === "list").map((p) => [t.name, p] as const));
    expect(lists.length).toBeGreaterThanOrEqual(14);
    for (const [type, p] of lists) {
      expect(p.items, `${type}.${p.name}`).toBeDefined();
      const items = paramJson(type, p.name).items as Record<string, unknown>;
      expect(Object.keys(items).filter((k) => k !== "description"), `${type}.${p.name}`).not.toEqual([]);
    }
    // A call, as every generic component reads one: its keys, their kinds, and no other key.
    expect(paramJson("driver", "calls").items).toEqual({
      type: "object",
      properties: {
        port: { description: "The uses port the call goes through (letters, digits, _ or -, starting with a letter or _).", type: "string", pattern: "^[A-Za-z_][\\w-]*$" },
        method: { description: "The method called (letters, digits, _ or -, starting with a letter or _).", type: "string", pattern: "^[A-Za-z_][\\w-]*$", default: "run" },
        portType: { description: "The uses port's type name.", type: "string", default: "Work" },
        args: {
          description: "The arguments passed, by name: expressions of the caller's scope, or quoted text such as \"'y'\".",
          type: "object",
          additionalProperties: { description: "An expression of the caller's scope, or quoted text such as \"'y'\". (a mathjs expression)", type: ["string", "number"] },
        },
        count: { description: "Calls per invocation, a whole number, 0 or more. (a mathjs expression)", type: ["string", "number"], default: 1 },
      },
      required: ["port"],
      additionalProperties: false,
    });
    for (const type of ["dummy", "kernel"]) expect(paramJson(type, "calls").items).toEqual(paramJson("driver", "calls").items);
    expect(paramJson("halo-exchange", "ranks")).toMatchObject({ type: "array", items: { type: "integer", minimum: 1 }, minItems: 2, maxItems: 3 });
  });

  it("objects to wrong items where the loader does, in every kind of list parameter", () => {
    const shock = () => parse(readFileSync(join(SCENARIOS, "shock-madison.yaml"), "utf8")) as Record<string, any>;
    const mixed = (edit: (c: Record<string, any>) => void) => edited((d) => edit(d.assembly.components));
    const inShock = (edit: (c: Record<string, any>) => void) => {
      const d = shock();
      edit(d.assembly.components);
      return d;
    };
    const at = (name: string, key: string) => `/assembly/components/${name}/params/${key}`;
    const mesh = Object.entries(shock().assembly.components).find(([, c]: [string, any]) => c.type === "AMRMesh")![0];
    const efm = Object.entries(shock().assembly.components).find(([, c]: [string, any]) => c.type === "EFMFlux")![0];
    const cases: [string, Record<string, any>, string][] = [
      ["an argument name that is a number", mixed((c) => (c.Model.params.args = [3])), at("Model", "args/0")],
      ["a kernel argument name that is a map", mixed((c) => (c.Stencil.params.args = [{ Q: 1 }])), at("Stencil", "args/0")],
      ["a call without a port", mixed((c) => (c.Driver.params.calls[0] = { args: { x: 2 } })), at("Driver", "calls/0")],
      ["a call with a misspelt key", mixed((c) => (c.Driver.params.calls[0].prot = "model")), at("Driver", "calls/0")],
      ["a call's method with a space", mixed((c) => (c.Driver.params.calls[1].method = "com pute")), at("Driver", "calls/1/method")],
      ["a call's argument that is a list", mixed((c) => (c.Driver.params.calls[0].args = { x: [2] })), at("Driver", "calls/0/args/x")],
      ["a call that is text", mixed((c) => (c.Model.params.calls = ["model"])), at("Model", "calls/0")],
      ["a kernel's call with a count that is a map", mixed((c) => (c.Stencil.params.calls = [{ port: "p", count: { n: 1 } }])), at("Stencil", "calls/0/count")],
      ["a rank grid of text", mixed((c) => (c.Halo.params.ranks = ["2", "2"])), at("Halo", "ranks/0")],
      ["a rank grid with 0", mixed((c) => (c.Halo.params.ranks = [4, 0])), at("Halo", "ranks/1")],
      ["patch cells of one dimension", mixed((c) => (c.Halo.params.patchCells = [64])), at("Halo", "patchCells")],
      ["patch cells that are true", mixed((c) => (c.Halo.params.patchCells = [64, true])), at("Halo", "patchCells/1")],
      ["a domain of three extents", inShock((c) => (c[mesh].params.domain = [320, 96, 4])), at(mesh, "domain")],
      ["a domain extent that is fractional", inShock((c) => (c[mesh].params.domain = [320.5, 96])), at(mesh, "domain/0")],
      ["a band of text", inShock((c) => (c[mesh].params.bands = [40, "wide"])), at(mesh, "bands/1")],
      ["a negative band", inShock((c) => (c[mesh].params.bands = [40, -1])), at(mesh, "bands/1")],
      ["a front without x", inShock((c) => delete c[mesh].params.fronts[0].x), at(mesh, "fronts/0")],
      ["a front with a misspelt key", inShock((c) => (c[mesh].params.fronts[0].sped = 1)), at(mesh, "fronts/0")],
      ["no front", inShock((c) => (c[mesh].params.fronts = [])), at(mesh, "fronts")],
      ["a patch size without a height", inShock((c) => delete c[mesh].params.patchSizes[0].height), at(mesh, "patchSizes/0")],
      ["a patch size range of one number", inShock((c) => (c[mesh].params.patchSizes[0].width = [8])), at(mesh, "patchSizes/0/width")],
      ["a loop without its arrays", inShock((c) => (c[efm].params = { loops: [{ loads: 1, stores: 1, flops: 1, otherInstructions: 1 }] })), at(efm, "loops/0")],
      ["a loop of 65 arrays", inShock((c) => (c[efm].params = { loops: [{ loads: 65, stores: 1, flops: 1, otherInstructions: 1, arrays: 65 }] })), at(efm, "loops/0/arrays")],
      ["a loop's fmaFraction above 1", inShock((c) => (c[efm].params = { loops: [{ loads: 1, stores: 1, flops: 1, otherInstructions: 1, arrays: 1, fmaFraction: 2 }] })), at(efm, "loops/0/fmaFraction")],
      ["no loop", inShock((c) => (c[efm].params = { loops: [] })), at(efm, "loops")],
    ];
    for (const [what, doc, path] of cases) {
      expect(objections(doc).some((o) => o.startsWith(path)), `${what}: ${objections(doc).join("; ")}`).toBe(true);
      expect(() => loadScenarioText(JSON.stringify(doc), "bad.json"), what).toThrow();
    }
    // Items the loader takes: expressions of the workload as patch cells, a loop stating only what it must.
    const good = [
      mixed((c) => (c.Halo.params.patchCells = ["Q / 100", 64, 8])),
      mixed((c) => (c.Driver.params.calls[0] = { port: "model", method: "run", portType: "Work", args: { x: "steps / 2" }, count: "steps > 1" })),
      inShock((c) => (c[efm].params = { loops: [{ loads: 1, stores: 1, flops: 1, otherInstructions: 1, arrays: 2 }] })),
      // A mesh of one level refines nothing: no bands.
      inShock((c) => (c[mesh].params = { levels: 1, patchSizes: [{ width: [8, 16], height: [8, 16] }], fronts: [{ x: 10 }] })),
    ];
    for (const doc of good) {
      expect(objections(doc)).toEqual([]);
      expect(() => loadScenarioText(JSON.stringify(doc), "ok.json")).not.toThrow();
    }
  });
});

describe("the JSON Schema on program models", () => {
  const program = () => parse(readFileSync(join(SCENARIOS, "program-elements.yaml"), "utf8")) as Record<string, any>;
  it("objects where the loader does: a for loop without count or to, or with both forms, a workload variable named as the process, a counter a program cannot measure", () => {
    const loop = (extra: object) => (d: Record<string, any>) => d.program.main.push({ for: "k", ...extra, do: [{ action: "X", cost: 1 }] });
    const cases: [string, (d: Record<string, any>) => void, string][] = [
      ["a for loop with neither count nor to", loop({ from: 1 }), "/program/main/"],
      ["a for loop with count and to", loop({ count: 3, to: 5 }), "/program/main/"],
      ["a workload variable named pid", (d) => (d.workload.pid = 1), "/workload"],
      ["a cache counter", (d) => (d.metrics = ["TIME", "PAPI_L2_TCM"]), "/metrics/1"],
    ];
    for (const [what, edit, path] of cases) {
      const doc = program();
      edit(doc);
      expect(objections(doc).some((o) => (path === "" ? o.startsWith(": ") : o.startsWith(path))), `${what}: ${objections(doc).join("; ")}`).toBe(true);
      expect(() => loadScenarioText(JSON.stringify(doc), "bad.json"), what).toThrow();
    }
    const counted = program();
    loop({ count: 2 })(counted);
    const ranged = program();
    loop({ from: 1, to: 4, step: 2 })(ranged);
    const cycles = program();
    cycles.metrics = ["TIME", "PAPI_TOT_CYC"];
    for (const doc of [counted, ranged, cycles]) {
      expect(objections(doc)).toEqual([]);
      expect(() => loadScenarioText(JSON.stringify(doc), "ok.json")).not.toThrow();
    }
  });
});

describe("the JSON Schema 'ccasim schema --sweep' prints", () => {
  const sweepObjections = objectionsTo(sweepJsonSchema());
  const SWEEPS = join(import.meta.dirname, "sweeps");
  const sweepFiles = [
    ...readdirSync(SCENARIOS).filter((f) => f.endsWith(".sweep.yaml")).map((f) => join(SCENARIOS, f)),
    ...readdirSync(SWEEPS).filter((f) => f.endsWith(".sweep.yaml")).map((f) => join(SWEEPS, f)),
  ];

  it("accepts every shipped and test sweep file, inline scenarios included", () => {
    expect(sweepFiles.length).toBeGreaterThanOrEqual(4);
    for (const f of sweepFiles) expect(sweepObjections(parse(readFileSync(f, "utf8"))), f).toEqual([]);
  });

  it("checks an inline scenario as the scenario schema does, program models included", () => {
    const inline = (scenario: Record<string, any>) => ({ seed: 1, axes: { "workload.x": [1, 2] }, scenario });
    const misspelt = edited((d) => (d.machine.l2 = { sise: "256KiB" }));
    expect(sweepObjections(inline(misspelt)).some((o) => o.startsWith("/scenario/machine/l2"))).toBe(true);
    expect(() => loadSweepText(JSON.stringify(inline(misspelt)), "bad.sweep.json").points.length).toThrow();
    const loop = parse(readFileSync(join(SCENARIOS, "program-elements.yaml"), "utf8")) as Record<string, any>;
    expect(sweepObjections(inline(loop))).toEqual([]);
    loop.program.main.push({ for: "k", from: 1, do: [{ action: "X", cost: 1 }] });
    expect(sweepObjections(inline(loop)).some((o) => o.startsWith("/scenario/program/main/"))).toBe(true);
    expect(sweepObjections({ scenario: "kernel-l2.yaml", axes: { "workload.Q": [1] } })).toEqual([]);
  });
});

describe("the JSON Schema's documentation of program models", () => {
  it("names every process variable where it says what cost functions may use", async () => {
    const { SYSTEM_SLOTS } = await import("../../scenarios/program/model.js");
    const found: string[] = [];
    // Every description that lists what cost functions may use.
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (typeof node === "object" && node !== null) {
        for (const [k, v] of Object.entries(node)) {
          if ((k === "description" || k === "markdownDescription") && typeof v === "string" && v.startsWith("Cost functions:")) found.push(v);
          else visit(v);
        }
      }
    };
    visit(scenarioJsonSchema());
    expect(found.length).toBeGreaterThan(0);
    for (const text of found) for (const name of SYSTEM_SLOTS) expect(text, name).toMatch(new RegExp(`\\b${name}\\b`));
  });
});
