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
  scenarioJsonSchema,
  type ParamDoc,
  type ParamValueDoc,
} from "../../index.js";
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
});
