import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";
import { scenarioErrorsOf } from "../scenarios/fixtures.js";

/** A driver calling method `method` of a dummy A (which provides `provided`) and of a kernel K. */
const scenario = (provided: string, called: string) => `
name: method-names
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
metrics: [TIME]
assembly:
  components:
    Driver: { type: driver, params: { calls: [{ port: a, method: ${called}, args: { x: 1 } }, { port: k, portType: Kernel, method: ${called}, args: { Q: 100 } }] } }
    A: { type: dummy, params: { method: ${provided}, cost: "1" } }
    K: { type: kernel, params: { method: ${provided} } }
  connections: [Driver.a -> A.work, Driver.k -> K.compute]
`;

/** The message of the located error loading `text` throws. */
const loadErrorOf = (text: string): string => scenarioErrorsOf(() => loadScenarioText(text, "methods.yaml")).message;

describe("method names of the generic components", () => {
  it("refuse a name the profile could not time as Component::method(), at each key", () => {
    for (const bad of ["'a => b'", "'r\"x'", "'run()'", "'a b'", "2"]) {
      const message = loadErrorOf(scenario(bad, bad));
      expect(message).toMatch(/assembly\.components\.A\.params\.method: expected a method name \(letters, digits, _ or -, starting with a letter or _\), got /);
      expect(message).toMatch(/assembly\.components\.K\.params\.method: expected a method name/);
      expect(message).toMatch(/assembly\.components\.Driver\.params\.calls\[0\]\.method: expected a method name/);
    }
  });

  it("time a name of letters, digits, _ and - as Component::method()", () => {
    const art = executeScenario(loadScenarioText(scenario("solve-x_2", "solve-x_2"), "methods.yaml"));
    const names = art.trial!.timers.map((t) => t.name);
    expect(names).toContain("A::solve-x_2()");
    expect(names).toContain("K::solve-x_2()");
  });
});
