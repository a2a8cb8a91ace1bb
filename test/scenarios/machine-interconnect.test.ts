import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../scenarios/index.js";

const scenario = (preset: string, network?: string) => `
name: net
machine:
  preset: ${preset}
  nodes: 2
${network === undefined ? "" : `  network: ${network}\n`}assembly:
  components:
    D: { type: driver, params: { iterations: 1 } }
`;
const networkOf = (preset: string, network?: string) => loadScenarioText(scenario(preset, network), "net.yaml").machine.network;

describe("the interconnect of a machine section that names none", () => {
  it("is the network of the node preset's system", () => {
    expect(networkOf("itanium2-madison").preset).toBe("numalink-4");
    expect(networkOf("pentium3-xeon-700").preset).toBe("fast-ethernet");
    expect(networkOf("xeon-2.8ghz-512k").preset).toBe("gigabit-ethernet");
    // NUMAlink 4: 1 us, 3.2 GB/s.
    expect(networkOf("itanium2-madison").interNode.params).toMatchObject({ alpha: 1, bandwidth: 3.2e9 });
  });

  it("also when the section sets other network keys, and never over a named preset or explicit parameters", () => {
    expect(networkOf("itanium2-madison", "{ model: loggp }").preset).toBe("numalink-4");
    expect(networkOf("itanium2-madison", "{ preset: infiniband-4x }").preset).toBe("infiniband-4x");
    const explicit = networkOf("itanium2-madison", "{ params: { alpha: 5us, bandwidth: 1GB/s } }");
    expect(explicit.preset).toBeUndefined();
    expect(explicit.interNode.params).toMatchObject({ alpha: 5, bandwidth: 1e9 });
  });

  it("gives what explicit parameters leave out: one parameter overrides the preset's value", () => {
    const alpha = networkOf("itanium2-madison", "{ params: { alpha: 5us } }");
    expect(alpha.preset).toBe("numalink-4");
    expect(alpha.interNode.params).toMatchObject({ alpha: 5, bandwidth: 3.2e9 });
    const set = loadScenarioText(scenario("itanium2-madison"), "net.yaml", { set: ["machine.network.params.alpha=5us"] }).machine.network;
    expect(set.interNode.params).toMatchObject({ alpha: 5, bandwidth: 3.2e9 });
  });
});
