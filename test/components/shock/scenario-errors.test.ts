import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText, ScenarioErrors } from "../../../scenarios/index.js";
import { scenarioPath } from "./run-shock.js";

const path = scenarioPath("shock-neuronic.yaml");
const text = readFileSync(path, "utf8");

function error(mutate: (t: string) => string, set: string[] = []): ScenarioErrors {
  try {
    loadScenarioText(mutate(text), path, { set });
  } catch (e) {
    if (e instanceof ScenarioErrors) return e;
    throw e;
  }
  throw new Error("expected the scenario to be rejected");
}

describe("shock scenario errors are located", () => {
  it("names the file, line and key of a patch-size range that is backwards", () => {
    const e = error((t) => t.replace("- { width: [60, 160], height: [32, 96] }", "- { width: [160, 60], height: [32, 96] }"));
    expect(e.message).toMatch(/shock-neuronic\.yaml:\d+/);
    expect(e.message).toMatch(/patchSizes/);
    expect(e.message).toMatch(/max 60 is below min 160/);
  });

  it("rejects a wrong number of patch-size entries and an unknown balancer", () => {
    expect(error((t) => t, ["assembly.components.AMRMesh.params.levels=4"]).message).toMatch(/params\.bands: must list 3 half-widths \(one per refined level of levels: 4\), got 2 entries/);
    expect(error((t) => t, ["assembly.components.AMRMesh.params.levels=4", "assembly.components.AMRMesh.params.bands=[40, 24, 12]"]).message).toMatch(
      /params\.patchSizes: must list 4 entries \(one per level of levels: 4\) of \{width: \[min, max\], height: \[min, max\]\}, got 3 entries/,
    );
    expect(error((t) => t, ["assembly.components.AMRMesh.params.balancer=random"]).message).toMatch(/sfc, greedy or composite/);
  });

  it("places a workload value a shock component cannot take, found as the run starts, at the parameter's key", () => {
    const runError = (set: string[]): string => {
      try {
        executeScenario(loadScenarioText(text, path, { set }));
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("expected the run to fail");
    };
    expect(runError(["workload.haloWidth=0"])).toMatch(
      /shock-neuronic\.yaml:\d+:\d+: assembly\.components\.AMRMesh\.params\.haloWidth: 'haloWidth' evaluates to 0; expected an integer >= 1 \(overridden: --set workload\.haloWidth=0\)/,
    );
    expect(runError(["workload.steps=2.5"])).toMatch(/assembly\.components\.ShockDriver\.params\.steps: 'steps' evaluates to 2\.5; expected an integer >= 0/);
  });

  it("refuses a front's name that is no text at its key, rather than naming the front front<i>", () => {
    for (const name of ["7", "null"]) {
      const e = error((t) => t.replace("{ name: shock,", `{ name: ${name},`));
      expect(e.message, name).toMatch(new RegExp(`shock-neuronic\\.yaml:\\d+:\\d+: assembly\\.components\\.AMRMesh\\.params\\.fronts\\[0\\]\\.name: must be text \\(a name such as shock\\), got ${name}`));
    }
    expect(() => loadScenarioText(text.replace("{ name: shock,", "{ name: '7',"), path)).not.toThrow();
  });

  it("rejects unknown keys of the work description with the known ones listed", () => {
    const e = error((t) => t, ["assembly.components.StatesConstructor.params.work={flopz: 3}"]);
    expect(e.message).toMatch(/unknown parameter 'flopz'/);
    expect(e.message).toMatch(/loads, stores, flops/);
  });

  it("refuses per-element counts in 'work' for a component of several loops (they would be laid over every loop), and takes fmaFraction", () => {
    const e = error((t) => t, ["assembly.components.StatesConstructor.params.work={loads: 9, passes: 7}"]);
    expect(e.message).toMatch(/work\.loads: this component runs 3 loops per invocation: give per-loop work \(loads, passes\) as 'loops:'/);
    expect(() => loadScenarioText(text, path, { set: ["assembly.components.StatesConstructor.params.work={fmaFraction: 0.5}"] })).not.toThrow();
    // EFMFlux runs one loop: 'work' still sets any of its keys.
    expect(() => loadScenarioText(text, path, { set: ["assembly.components.EFMFlux.params.work={loads: 9}"] })).not.toThrow();
  });

  it("rejects a loop that does not state its work or arrays, and unknown keys of a loop, naming the loop", () => {
    const missing = error((t) => t, ["assembly.components.StatesConstructor.params.loops=[{loads: 4, stores: 1, flops: 6, otherInstructions: 2, arrays: 2}, {loads: 4, stores: 1, flops: 6, otherInstructions: 2}]"]);
    expect(missing.message).toMatch(/loops\[1\]\.arrays: required/);
    const unknown = error((t) => t, ["assembly.components.GodunovFlux.params.loops=[{loads: 4, stores: 1, flops: 6, otherInstructions: 2, arrays: 2, pases: 2}]"]);
    expect(unknown.message).toMatch(/loops\[0\]\.pases: unknown parameter 'pases'.*did you mean 'passes'/);
    expect(error((t) => t, ["assembly.components.EFMFlux.params.loops=[]"]).message).toMatch(/loops: must be a non-empty list/);
  });
});
