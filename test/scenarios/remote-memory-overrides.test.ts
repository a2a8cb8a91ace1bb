import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { definePreset, executeScenario, loadScenario, machinePresets, MACHINE_PARAMS, presetParameters, resolveMachine, resolveMachineChecked } from "../../index.js";

async function validate(...argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await main(["validate", ...argv], { out: () => undefined, err: (s) => (stderr += s) });
  return { code, stderr };
}

/** The node memory of `file` loaded with `set`. */
const memoryOf = (file: string, ...set: string[]) => loadScenario(file, { set }).machine.config.memory;

describe("remote memory under overrides of the local one", () => {
  it("carries a remote memory the preset defines as equal to local along with an override of the local one, unless the scenario sets it too", () => {
    // xeon-2.8ghz-512k and pentium3-xeon-700: distributed-memory clusters, remote memory 'equal to local'.
    expect(memoryOf("scenarios/known-models.yaml", "machine.memory.bandwidth=4GB/s")).toMatchObject({ bandwidth: 4e9, remoteBandwidth: 4e9, latency: 0.15, remoteLatency: 0.15 });
    expect(memoryOf("scenarios/known-models.yaml", "machine.memory={bandwidth: 4GB/s, latency: 100ns}")).toMatchObject({ bandwidth: 4e9, remoteBandwidth: 4e9, latency: 0.1, remoteLatency: 0.1 });
    expect(memoryOf("scenarios/program-elements.yaml", "machine.memory.bandwidth=1.6GB/s")).toMatchObject({ bandwidth: 1.6e9, remoteBandwidth: 1.6e9 });
    // Set too, it is what the scenario says; set alone, the local one stays the preset's.
    expect(memoryOf("scenarios/known-models.yaml", "machine.memory.bandwidth=4GB/s", "machine.memory.remoteBandwidth=2GB/s")).toMatchObject({ bandwidth: 4e9, remoteBandwidth: 2e9 });
    expect(memoryOf("scenarios/known-models.yaml", "machine.memory.remoteBandwidth=2GB/s")).toMatchObject({ bandwidth: 3.2e9, remoteBandwidth: 2e9 });
    // itanium2-madison gives NUMAlink's 3.2 GB/s as a figure of its own: it stays.
    expect(memoryOf("scenarios/shock-madison.yaml", "machine.memory.bandwidth=8GB/s")).toMatchObject({ bandwidth: 8e9, remoteBandwidth: 3.2e9 });
    // The library's resolveMachine, by dotted key or nested, as a scenario's overrides.
    expect(resolveMachine("xeon-2.8ghz-512k", { "memory.bandwidth": 4e9 }).memory.remoteBandwidth).toBe(4e9);
    expect(resolveMachine("xeon-2.8ghz-512k", { memory: { latency: 0.1 } }).memory.remoteLatency).toBe(0.1);
    expect(resolveMachine("itanium2-madison", { "memory.bandwidth": 8e9 }).memory.remoteBandwidth).toBe(3.2e9);
    // A configuration given whole has no preset to define one key by another.
    expect(resolveMachine(machinePresets.get("xeon-2.8ghz-512k").config, { "memory.bandwidth": 4e9 }).memory.remoteBandwidth).toBe(3.2e9);
  });

  it("reports a local value out of range at the key set alone, not again at the remote key that follows it", async () => {
    const r = await validate("scenarios/known-models.yaml", "--set", "machine.memory.bandwidth=2000TB/s");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("1 error");
    expect(r.stderr).toContain("machine.memory.bandwidth: expected a number in [1000, 1000000000000000] bytes/s, got 2000000000000000 (from --set machine.memory.bandwidth=2000TB/s)");
    expect(r.stderr).not.toContain("remoteBandwidth");
    const keys = (overrides: Record<string, unknown>) => resolveMachineChecked("xeon-2.8ghz-512k", overrides).errors.map((e) => e.key);
    expect(keys({ "memory.latency": 2000 })).toEqual(["machine.memory.latency"]);
    expect(keys({ memory: { latency: -1, bandwidth: 1 } })).toEqual(["machine.memory.latency", "machine.memory.bandwidth"]);
    // Set too, the remote key is the scenario's own: its error is its own.
    expect(keys({ "memory.latency": 2000, "memory.remoteLatency": 2000 })).toEqual(["machine.memory.latency", "machine.memory.remoteLatency"]);
    expect(keys({ "memory.latency": 2000, "memory.remoteLatency": 0.2 })).toEqual(["machine.memory.latency"]);
  });

  it("records in the run's metadata what the scenario set, and the machine that ran in its summary", () => {
    const art = executeScenario(loadScenario("scenarios/known-models.yaml", { set: ["machine.memory.bandwidth=4GB/s", "workload.iterations=2"] }));
    expect(art.trial!.metadataString("machine.memory.bandwidth")).toBe("4GB/s");
    expect(art.trial!.metadataString("machine.memory.remoteBandwidth")).toBeUndefined();
    const machine = (art.summary.resolved as { machine: { memory: unknown; resolved: { memory: Record<string, number> } } }).machine;
    expect(machine.memory).toEqual({ bandwidth: "4GB/s" });
    expect(machine.resolved.memory).toMatchObject({ bandwidth: 4e9, remoteBandwidth: 4e9 });
  });

  it("warns, at the key set, when an override makes remote memory faster or nearer than local on a preset that gives it as a figure of its own", async () => {
    const warned = async (...set: string[]): Promise<string> => {
      const r = await validate("scenarios/shock-madison.yaml", ...set.flatMap((s) => ["--set", s]));
      expect(r.code).toBe(0);
      return r.stderr;
    };
    expect(await warned("machine.memory.bandwidth=2GB/s")).toMatch(
      /^warning: scenarios\/shock-madison\.yaml:\d+:\d+: machine\.memory\.bandwidth: 2 GB\/s, below machine\.memory\.remoteBandwidth \(3\.2 GB\/s, the preset's\): remote \(ccNUMA\) memory faster than local is unlike any real machine \(set memory\.remoteBandwidth too, or is the value in the right unit\?\) \(from --set machine\.memory\.bandwidth=2GB\/s\)\n$/,
    );
    expect(await warned("machine.memory.remoteBandwidth=8GB/s")).toMatch(
      /^warning: scenarios\/shock-madison\.yaml:\d+:\d+: machine\.memory\.remoteBandwidth: 8 GB\/s, above machine\.memory\.bandwidth \(6\.4 GB\/s, the preset's\): remote \(ccNUMA\) memory faster than local is unlike any real machine \(is the value in the right unit\?\) \(from --set machine\.memory\.remoteBandwidth=8GB\/s\)\n$/,
    );
    expect(await warned("machine.memory.latency=200ns")).toMatch(/machine\.memory\.latency: 200 ns, above machine\.memory\.remoteLatency \(145 ns, the preset's\): remote \(ccNUMA\) memory nearer than local/);
    expect(await warned("machine.memory.bandwidth=2GB/s", "machine.memory.remoteBandwidth=4GB/s")).toMatch(/machine\.memory\.remoteBandwidth: 4 GB\/s, above machine\.memory\.bandwidth \(2 GB\/s\): /);
    // Remote memory no faster than local, or never used (remoteFraction 0), or the preset as it is: nothing to say.
    expect(await warned("machine.memory.bandwidth=2GB/s", "machine.memory.remoteBandwidth=1GB/s")).toBe("");
    expect(await warned("machine.memory.bandwidth=8GB/s")).toBe("");
    expect(await warned()).toBe("");
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.memory.remoteBandwidth=8GB/s")).stderr).toBe("");
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.memory.remoteBandwidth=8GB/s", "--set", "machine.memory.remoteFraction=0.1")).stderr).toContain("machine.memory.remoteBandwidth: 8 GB/s, above machine.memory.bandwidth (3.2 GB/s, the preset's)");
    // Following the local one, it is never faster.
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.memory.bandwidth=1GB/s", "--set", "machine.memory.remoteFraction=0.1")).stderr).toBe("");
  });

  it("documents the rule where the preset's keys are documented, and refuses a preset whose keys equal by definition differ", () => {
    const source = (preset: string, key: string) => presetParameters(machinePresets.get(preset)).find((p) => p.key === key)!.source;
    expect(source("xeon-2.8ghz-512k", "memory.remoteBandwidth")).toBe("no remote memory on a distributed-memory cluster: equal to local; so it follows an override of memory.bandwidth unless it is set too");
    expect(source("pentium3-xeon-700", "memory.remoteLatency")).toBe("no remote memory on a distributed-memory cluster: equal to local; so it follows an override of memory.latency unless it is set too");
    expect(source("itanium2-madison", "memory.remoteBandwidth")).toBe("NUMAlink 4: 3.2 GB/s per direction per link");
    const doc = MACHINE_PARAMS.find((p) => p.name === "memory.remoteBandwidth")!.doc;
    expect(doc).toContain("a scenario that overrides memory.bandwidth alone gets this key overridden with it");
    expect(doc).toContain("remote memory faster than local is warned about");
    const xeon = machinePresets.get("xeon-2.8ghz-512k");
    const config = { ...xeon.config, memory: { ...xeon.config.memory, remoteBandwidth: 1e9 } };
    expect(() => definePreset("uneven", "a node whose remote memory is not its local one", config, xeon.sources)).toThrow(
      "machine preset 'uneven': parameter 'memory.remoteBandwidth' is equal to 'memory.bandwidth' by its source, but is 1000000000 where 'memory.bandwidth' is 3200000000",
    );
    // A key equal to one that is itself equal to a third would not follow an override of the third.
    const chained = { ...xeon.sources, "memory.remoteLatency": { source: "equal to the remote bandwidth's", equalTo: "memory.remoteBandwidth" } };
    const same = { ...xeon.config, memory: { ...xeon.config.memory, remoteLatency: xeon.config.memory.remoteBandwidth } };
    expect(() => definePreset("chained", "a node whose keys follow each other", same, chained)).toThrow(
      "machine preset 'chained': parameter 'memory.remoteLatency' is equal to 'memory.remoteBandwidth' by its source, which is itself equal to 'memory.bandwidth': make it equal to 'memory.bandwidth'",
    );
  });
});
