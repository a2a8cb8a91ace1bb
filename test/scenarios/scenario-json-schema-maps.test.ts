import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  backgroundLoadModels,
  collectiveParams,
  componentTypes,
  loadScenarioText,
  MACHINE_PARAMS,
  networkParams,
  pointToPointModels,
  loadSweepText,
  scenarioJsonSchema,
  sweepJsonSchema,
  type ParamDoc,
  type ParamValueDoc,
} from "../../index.js";
import { invalidPoints } from "../../scenarios/sweep/index.js";
import { MIXED_SCENARIO } from "./fixtures.js";
import { objectionsTo } from "./json-schema-objections.js";

const SCENARIOS = join(import.meta.dirname, "..", "..", "scenarios");
const schema = scenarioJsonSchema() as Record<string, any>;
const objections = objectionsTo(schema);

/** MIXED_SCENARIO with `edit` applied to its components and its document. */
function mixed(edit: (components: Record<string, any>, doc: Record<string, any>) => void): Record<string, any> {
  const doc = parse(MIXED_SCENARIO) as Record<string, any>;
  edit(doc.assembly.components, doc);
  return doc;
}

/** shock-madison.yaml with `edit` applied to the parameters of its component of type `type`; the instance's name. */
function shock(type: string, edit: (params: Record<string, any>) => void): [Record<string, any>, string] {
  const doc = parse(readFileSync(join(SCENARIOS, "shock-madison.yaml"), "utf8")) as Record<string, any>;
  const [name, component] = Object.entries(doc.assembly.components).find(([, c]: [string, any]) => c.type === type) as [string, any];
  component.params ??= {};
  edit(component.params);
  return [doc, name];
}

/** MIXED_SCENARIO with its network section `network`. */
function network(net: Record<string, unknown>): Record<string, any> {
  return mixed((_, d) => (d.machine.network = { preset: "gigabit-ethernet", ...net }));
}

/** Each case's document is refused by the JSON Schema at (or below) its path, and by the loader. */
function expectBothRefuse(cases: readonly (readonly [string, Record<string, any>, string])[]): void {
  for (const [what, doc, path] of cases) {
    expect(objections(doc).some((o) => o.startsWith(path)), `${what}: ${objections(doc).join("; ")}`).toBe(true);
    expect(() => loadScenarioText(JSON.stringify(doc), "bad.json"), what).toThrow();
  }
}

/** Each document is accepted by the JSON Schema and by the loader. */
function expectBothAccept(docs: readonly Record<string, any>[]): void {
  for (const doc of docs) {
    expect(objections(doc)).toEqual([]);
    expect(() => loadScenarioText(JSON.stringify(doc), "ok.json")).not.toThrow();
  }
}

/** The `key` of documented value `doc` (and of its items, fields and entries) that is a map of anything. */
function mapsOfAnything(doc: ParamValueDoc, key: string): string[] {
  const own = doc.type === "map" && doc.fields === undefined && doc.entries === undefined ? [key] : [];
  return [
    ...own,
    ...(doc.items ? mapsOfAnything(doc.items, `${key}[]`) : []),
    ...(doc.fields ?? []).flatMap((f: ParamDoc) => mapsOfAnything(f, `${key}.${f.name}`)),
    ...(doc.entries ? mapsOfAnything(doc.entries, `${key}.*`) : []),
  ];
}

describe("the JSON Schema of parameters that are maps", () => {
  it("gives every map-valued parameter of every registered component type and model its keys (fields) or its values (entries)", () => {
    const owners: [string, readonly ParamDoc[]][] = [
      ...componentTypes.all().map((t): [string, readonly ParamDoc[]] => [`component type ${t.name}`, t.params]),
      ...pointToPointModels.all().map((m): [string, readonly ParamDoc[]] => [`point-to-point model ${m.name}`, m.params]),
      ...backgroundLoadModels.all().map((m): [string, readonly ParamDoc[]] => [`load model ${m.name}`, m.params]),
      ["collectives", collectiveParams],
      ["network", networkParams],
      ["machine", MACHINE_PARAMS],
    ];
    const maps = owners.flatMap(([owner, params]) => params.filter((p) => p.type === "map").map((p) => `${owner}: ${p.name}`));
    expect(maps).toEqual(
      expect.arrayContaining([
        "component type EFMFlux: work",
        "component type GodunovFlux: work",
        "component type GodunovFlux: iteration",
        "component type RK2: update",
        "component type StatesConstructor: work",
        "component type dummy: implementations",
        "component type kernel: patterns",
      ]),
    );
    expect(owners.flatMap(([owner, params]) => params.flatMap((p) => mapsOfAnything(p, `${owner}: ${p.name}`)))).toEqual([]);
  });

  /** The paths of the maps and lists of anything in JSON Schema `root`. */
  const untypedIn = (root: unknown): string[] => {
    const untyped: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${path}/${i}`));
      if (typeof node !== "object" || node === null) return;
      const n = node as Record<string, any>;
      const anything = (s: unknown) => s === undefined || s === true || (typeof s === "object" && s !== null && Object.keys(s).every((k) => k === "description"));
      const isMap = n.type === "object" || (Array.isArray(n.type) && n.type.includes("object"));
      if (isMap && n.properties === undefined && n.patternProperties === undefined && anything(n.additionalProperties)) untyped.push(path);
      if (n.type === "array" && anything(n.items)) untyped.push(path);
      for (const [k, v] of Object.entries(n)) if (k !== "default") walk(v, `${path}/${k}`);
    };
    walk(root, "");
    return untyped;
  };

  it("prints no map or list of anything but a section whose keys its model or type gives, each so given", () => {
    const net = "/properties/machine/properties/network";
    const sections = [`${net}/properties/params`, `${net}/properties/intraNode/properties/params`, `${net}/properties/load/properties/params`, "/properties/assembly/properties/components/additionalProperties/properties/params"];
    expect(untypedIn(schema)).toEqual(sections);
    // Each is typed by its model or its type: one branch per registered name, no other key.
    const byModel = (allOf: Record<string, any>[], names: string[], key = "model") => {
      expect(allOf.map((b) => b.if.properties[key].const)).toEqual(names);
      for (const b of allOf) expect(b.then.properties.params.additionalProperties, b.if.properties[key].const).toBe(false);
    };
    const section = schema.properties.machine.properties.network;
    byModel(section.allOf, pointToPointModels.names());
    byModel(section.properties.intraNode.allOf, pointToPointModels.names());
    byModel(section.properties.load.allOf, backgroundLoadModels.names());
    byModel(schema.properties.assembly.properties.components.additionalProperties.allOf, componentTypes.names(), "type");
  });

  it("prints for sweep files no map or list of anything but the scenario's typed sections and the values of keys whose shape is the scenario's", () => {
    const sweep = sweepJsonSchema() as Record<string, any>;
    // A value of a key the schema does not follow: a list or a map of anything, beside the keys it types.
    const values = ["/properties/axes/additionalProperties/anyOf/0/items", "/properties/zip/items/additionalProperties/items", "/properties/random/properties/axes/additionalProperties/anyOf/2/properties/choice/items", "/properties/set/additionalProperties"];
    const net = "/$defs/scenario/properties/machine/properties/network";
    expect(untypedIn(sweep).sort()).toEqual(
      [
        ...values.flatMap((v) => [`${v}/anyOf/3`, `${v}/anyOf/4`]),
        `${net}/properties/params`,
        `${net}/properties/intraNode/properties/params`,
        `${net}/properties/load/properties/params`,
        "/$defs/scenario/properties/assembly/properties/components/additionalProperties/properties/params",
      ].sort(),
    );
    const typed = Object.keys(sweep.properties.set.patternProperties);
    for (const record of [sweep.properties.axes, sweep.properties.zip.items, sweep.properties.random.properties.axes]) expect(Object.keys(record.patternProperties)).toEqual(typed);
    // Every component parameter that is a list or a map, and the network's sections of fixed keys.
    const structured = [...new Set(componentTypes.all().flatMap((t) => t.params.filter((p) => p.type === "list" || p.type === "map").map((p) => p.name)))];
    expect(typed).toEqual([
      ...structured.map((name) => `^assembly\\.components\\.[A-Za-z_][A-Za-z0-9_-]*\\.params\\.${name}$`),
      "^machine\\.network\\.intraNode$",
      "^machine\\.network\\.load$",
      "^machine\\.network\\.collectives$",
    ]);
  });
});

describe("the JSON Schema of component parameters that are maps", () => {
  const at = (name: string, key: string) => `/assembly/components/${name}/params/${key}`;

  it("refuses a wrong work map where the loader does, and takes one both accept (EFMFlux, GodunovFlux, StatesConstructor, RK2)", () => {
    const cases: [string, Record<string, any>, string][] = [];
    const good: Record<string, any>[] = [];
    for (const [type, key] of [["EFMFlux", "work"], ["GodunovFlux", "work"], ["StatesConstructor", "work"], ["RK2", "update"]] as const) {
      const edit = (what: string, value: unknown, sub = "") => {
        const [doc, name] = shock(type, (p) => (p[key] = value));
        cases.push([`${type}.${key}: ${what}`, doc, at(name, key + sub)]);
      };
      edit("a misspelt key", { lods: 1 });
      edit("a list", [{ fmaFraction: 0.5 }]);
      edit("an fmaFraction above 1", { fmaFraction: 1.5 }, "/fmaFraction");
      edit("an fmaFraction of text", { fmaFraction: "half" }, "/fmaFraction");
      good.push(shock(type, (p) => (p[key] = { fmaFraction: 0.5 }))[0]);
    }
    cases.push(["RK2.update: fractional arrays", shock("RK2", (p) => (p.update = { arrays: 2.5 }))[0], at(shock("RK2", () => {})[1], "update/arrays")]);
    good.push(shock("RK2", (p) => (p.update = { loads: 3, stores: 1, flops: 6, otherInstructions: 3, arrays: 3, passes: 2 }))[0]);
    expectBothRefuse(cases);
    expectBothAccept(good);
  });

  it("refuses a wrong Godunov iteration where the loader does, and takes one both accept", () => {
    const [, name] = shock("GodunovFlux", () => {});
    expectBothRefuse([
      ["a loop's key, which an iteration has not", shock("GodunovFlux", (p) => (p.iteration = { flops: 20, fmaFraction: 0.5 }))[0], at(name, "iteration")],
      ["negative flops", shock("GodunovFlux", (p) => (p.iteration = { flops: -1 }))[0], at(name, "iteration/flops")],
      ["a number", shock("GodunovFlux", (p) => (p.iteration = 30))[0], at(name, "iteration")],
    ]);
    expectBothAccept([shock("GodunovFlux", (p) => (p.iteration = { flops: 20, otherInstructions: 12 }))[0]]);
  });

  it("refuses wrong kernel patterns where the loader does, and takes patterns both accept", () => {
    expectBothRefuse([
      ["a misspelt pattern", mixed((c) => (c.Stencil.params.patterns = { x: "sequental" })), at("Stencil", "patterns/x")],
      ["a list of patterns", mixed((c) => (c.Stencil.params.patterns = ["sequential", "strided"])), at("Stencil", "patterns")],
      ["a pattern alone", mixed((c) => (c.Stencil.params.patterns = "strided")), at("Stencil", "patterns")],
    ]);
    expectBothAccept([
      mixed((c) => {
        c.Stencil.params = { ...c.Stencil.params, args: ["Q", "dir"], patternArg: "dir", patterns: { x: "sequential", y: "strided" } };
        c.Driver.params.calls[1].args.dir = "'y'";
      }),
      mixed((c) => (c.Stencil.params.patterns = { x: "random" })),
    ]);
  });

  it("refuses wrong dummy implementations where the loader does, and takes implementations both accept", () => {
    const impls = (value: unknown) => mixed((c) => (c.Model.params = { implementations: value, implementation: "A1" }));
    expectBothRefuse([
      ["an implementation's cost that is a list", impls({ A1: "10*x", A2: [5] }), at("Model", "implementations/A2")],
      ["an implementation's cost that is true", impls({ A1: "10*x", A2: true }), at("Model", "implementations/A2")],
      ["a list of costs", impls(["10*x"]), at("Model", "implementations")],
    ]);
    expectBothAccept([impls({ A1: "10*x", A2: 5 })]);
  });

  it("refuses a list or map parameter written with no value, as the loader does, rather than taking its default", () => {
    const [mesh, name] = [(edit: (p: Record<string, any>) => void) => shock("AMRMesh", edit)[0], shock("AMRMesh", () => {})[1]];
    expectBothRefuse([
      ["kernel patterns", mixed((c) => (c.Stencil.params.patterns = null)), at("Stencil", "patterns")],
      ["dummy implementations", mixed((c) => (c.Model.params.implementations = null)), at("Model", "implementations")],
      ["halo patch cells", mixed((c) => (c.Halo.params.patchCells = null)), at("Halo", "patchCells")],
      ["the mesh's domain", mesh((p) => (p.domain = null)), at(name, "domain")],
      ["the bands of a mesh of one level", mesh((p) => Object.assign(p, { levels: 1, bands: null, patchSizes: p.patchSizes.slice(0, 1) })), at(name, "bands")],
    ]);
  });
});

describe("the JSON Schema of the network's maps", () => {
  const net = "/machine/network";

  it("gives the inter-node params the keys of the chosen model, where the loader does", () => {
    expectBothRefuse([
      ["a LogGP parameter under the default model", network({ params: { L: "3us" } }), `${net}/params`],
      ["a Hockney parameter under LogGP", network({ model: "loggp", params: { alpha: "3us" } }), `${net}/params`],
      ["a latency without a unit", network({ params: { alpha: 3 } }), `${net}/params/alpha`],
      ["params that are a list", network({ params: ["3us"] }), `${net}/params`],
    ]);
    expectBothAccept([network({ params: { alpha: "20us", bandwidth: "100MB/s" } }), network({ model: "loggp", params: { L: "3us", o: "1us" } }), network({ params: null })]);
  });

  it("gives intraNode and load their model and its parameters, and no other key, where the loader does", () => {
    expectBothRefuse([
      ["a misspelt intraNode key", network({ intraNode: { model: "hockney", parms: { alpha: "2us" } } }), `${net}/intraNode`],
      ["an unknown intra-node model", network({ intraNode: { model: "shm" } }), `${net}/intraNode/model`],
      ["a Hockney parameter of a LogGP intra-node path", network({ intraNode: { model: "loggp", params: { alpha: "1us" } } }), `${net}/intraNode/params`],
      ["a LogGP intra-node path without its gap", network({ intraNode: { model: "loggp", params: { L: "1us", o: "1us", bandwidth: "1GB/s" } } }), `${net}/intraNode/params`],
      ["a misspelt load key", network({ load: { modl: "piecewise" } }), `${net}/load`],
      ["a parameter of piecewise under the default load none", network({ load: { params: { mean: 0.3 } } }), `${net}/load/params`],
      ["a negative mean load", network({ load: { model: "piecewise", params: { mean: -1 } } }), `${net}/load/params/mean`],
      ["a mean load written empty", network({ load: { model: "piecewise", params: { mean: null } } }), `${net}/load/params/mean`],
      ["an eager limit written empty", network({ eagerLimit: null }), `${net}/eagerLimit`],
      ["a load that is a name", network({ load: "piecewise" }), `${net}/load`],
    ]);
    expectBothAccept([
      network({ intraNode: { params: { alpha: "2us" } }, load: { model: "piecewise", params: { mean: 0.3, period: "1ms" } } }),
      network({ intraNode: { model: "loggp", params: { L: "1us", o: "0.5us", g: "0.5us", bandwidth: "1GB/s" } }, load: { model: "none" } }),
      network({ intraNode: null, load: null }),
    ]);
  });

  it("gives collectives their algorithms by collective and the selection's parameters, where the loader does", () => {
    expectBothRefuse([
      ["a misspelt collectives key", network({ collectives: { algos: {} } }), `${net}/collectives`],
      ["a misspelt collective", network({ collectives: { algorithms: { alreduce: "ring" } } }), `${net}/collectives/algorithms`],
      ["a misspelt algorithm", network({ collectives: { algorithms: { allreduce: "rin" } } }), `${net}/collectives/algorithms/allreduce`],
      ["an algorithm of another collective", network({ collectives: { algorithms: { barrier: "ring" } } }), `${net}/collectives/algorithms/barrier`],
      ["a threshold of text", network({ collectives: { params: { bcastShortMsg: "lots" } } }), `${net}/collectives/params/bcastShortMsg`],
      ["a throttle of 0", network({ collectives: { params: { alltoallThrottle: 0 } } }), `${net}/collectives/params/alltoallThrottle`],
      ["a threshold written empty", network({ collectives: { params: { bcastShortMsg: null } } }), `${net}/collectives/params/bcastShortMsg`],
      ["a misspelt parameter", network({ collectives: { params: { bcastShortMessage: "4KiB" } } }), `${net}/collectives/params`],
    ]);
    expectBothAccept([
      network({ collectives: { algorithms: { allreduce: "ring", bcast: "auto" }, params: { bcastShortMsg: "4KiB", reduceCostPerByte: "1ns" } } }),
      network({ collectives: { algorithms: null, params: null } }),
    ]);
  });
});

describe("the JSON Schema of sweep files on values of map and list keys", () => {
  const sweepObjections = objectionsTo(sweepJsonSchema());
  /** Whether the loader refuses the sweep, or a point of it, as `ccasim validate` loads them. */
  const loaderRefuses = (sweep: Record<string, unknown>): boolean => {
    try {
      return invalidPoints(loadSweepText(JSON.stringify(sweep), "maps.sweep.json")).length > 0;
    } catch {
      return true;
    }
  };
  /** A sweep over MIXED_SCENARIO, inline, with its dummy choosing between implementations. */
  const over = (body: Record<string, unknown>) => ({
    seed: 1,
    scenario: mixed((c) => (c.Model.params = { implementations: { A1: "10*x", A2: "5*x" }, implementation: "A1" })),
    ...body,
  });
  const efm = shock("EFMFlux", () => {})[1];
  const overShock = (body: Record<string, unknown>) => ({ seed: 1, scenario: shock("EFMFlux", () => {})[0], ...body });
  const patterns = "assembly.components.Stencil.params.patterns";
  const impls = "assembly.components.Model.params.implementations";
  const collectives = "machine.network.collectives";
  const intraNode = "machine.network.intraNode";
  const work = `assembly.components.${efm}.params.work`;

  it("checks the value of a component's map parameter or a network section wherever a sweep gives one, where the points' loads refuse it", () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["a misspelt pattern set", over({ set: { [patterns]: { x: "sequental" } } }), `/set/${patterns}/x`],
      ["implementations set to a list", over({ set: { [impls]: ["10*x"] } }), `/set/${impls}`],
      ["a misspelt algorithm swept", over({ axes: { [collectives]: [{ algorithms: { allreduce: "ring" } }, { algorithms: { allreduce: "rin" } }] } }), `/axes/${collectives}/1/algorithms/allreduce`],
      ["a range over a map key", over({ axes: { [collectives]: { from: 1, to: 2, step: 1 } } }), `/axes/${collectives}`],
      ["a network section set empty, which a sweep value never is", over({ set: { [intraNode]: null } }), `/set/${intraNode}`],
      ["an empty network section among an axis's values", over({ axes: { [collectives]: [{ algorithms: { allreduce: "ring" } }, null] } }), `/axes/${collectives}/1`],
      ["a misspelt intraNode key among the choices", over({ random: { n: 1, axes: { [intraNode]: { choice: [{ parms: { alpha: "2us" } }] } } } }), `/random/axes/${intraNode}/choice/0`],
      ["a misspelt work key zipped", overShock({ zip: [{ [work]: [{ fmaFraction: 0.2 }, { lods: 1 }] }] }), `/zip/0/${work}/1`],
    ];
    for (const [what, sweep, path] of cases) {
      expect(sweepObjections(sweep).some((o) => o.startsWith(path)), `${what}: ${sweepObjections(sweep).join("; ")}`).toBe(true);
      expect(loaderRefuses(sweep), what).toBe(true);
    }
    const good = [
      over({ set: { [patterns]: { x: "random" }, [impls]: { A1: "10*x", A2: 5 } } }),
      over({ axes: { [collectives]: [{ algorithms: { allreduce: "ring" } }, { algorithms: { allreduce: "auto" }, params: { allreduceShortMsg: "4KiB" } }] } }),
      over({ random: { n: 1, axes: { [intraNode]: { choice: [{ params: { alpha: "2us" } }, { model: "hockney" }] } } } }),
      overShock({ zip: [{ [work]: [{ fmaFraction: 0.2 }, { fmaFraction: 0.4 }] }] }),
      // Keys whose shape the schema does not follow keep any value of the right kind.
      over({ set: { "assembly.components.Model.params": { cost: "3*x" }, "workload.steps": 2 } }),
    ];
    for (const sweep of good) {
      expect(sweepObjections(sweep)).toEqual([]);
      expect(loaderRefuses(sweep)).toBe(false);
    }
  });
});
