import { describe, expect, it } from "vitest";
import { executeScenario, loadScenario } from "../../scenarios/index.js";

/** shock-neuronic, short, with a proxy on AMRMesh's patch services (four methods). */
function run(proxy: string) {
  const set = ["workload.steps=2", "workload.regridInterval=1", `assembly.proxies[4]=${proxy}`];
  return executeScenario(loadScenario("scenarios/shock-neuronic.yaml", { set }));
}

describe("a proxy's methods (paper 000: the user picks the methods to monitor)", () => {
  it("records only the methods listed, and every method of the port by default", () => {
    const methodsOf = (proxy: string) => new Set(run(proxy).result.mastermind!.records.filter((r) => r.component === "AMRMesh" && r.port === "mesh").map((r) => r.method));
    expect([...methodsOf("{port: AMRMesh.mesh, methods: [prolong, restrict], parameters: {level: argument level}}")].sort()).toEqual(["prolong", "restrict"]);
    expect([...methodsOf("{port: AMRMesh.mesh, parameters: {level: argument level}}")].sort()).toEqual(["patches", "prolong", "regrid", "restrict"]);
  });

  it("refuses a method the port does not have, at its key, and a parameter no recorded method has", () => {
    expect(() => run("{port: AMRMesh.mesh, methods: [prolong, restric]}")).toThrow(/assembly\.proxies\[4\]\.methods\[1\]: port type 'AMRMesh' has no method 'restric' \(did you mean 'restrict'\?\); its methods: patches, prolong, restrict, regrid/);
    // A name near none: the port's methods, not the assembly's components.
    expect(() => run("{port: AMRMesh.mesh, methods: [flux]}")).toThrow(/methods\[0\]: port type 'AMRMesh' has no method 'flux'; its methods: patches, prolong, restrict, regrid( |$)/);
    expect(() => run("{port: AMRMesh.mesh, methods: [prolong], parameters: {step: argument step}}")).toThrow(/assembly\.proxies\[4\]\.parameters\.step: no recorded method of port type 'AMRMesh' has an argument 'step'; arguments: level/);
    expect(() => run("{port: AMRMesh.mesh, methods: [prolong, prolong]}")).toThrow(/assembly\.proxies\[4\]\.methods\[1\]: "prolong" is listed twice \(first at \[0\]\)/);
  });
});
