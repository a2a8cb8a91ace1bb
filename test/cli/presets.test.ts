import { describe, expect, it } from "vitest";
import { interconnectPresets, machinePresets, parseQuantity, resolveMachine } from "../../index.js";
import { MACHINE_PARAMS } from "../../machine/index.js";
import { runCli as run } from "./run-cli.js";

describe("ccasim presets", () => {
  it("lists every machine and interconnect preset and the point-to-point models", async () => {
    const r = await run(["presets"]);
    expect(r.code).toBe(0);
    for (const name of [...machinePresets.names(), ...interconnectPresets.names(), "hockney", "loggp"]) expect(r.out).toContain(name);
  });

  it("lists the collective algorithms a scenario may force and the selection parameters with MPICH's defaults, each of which a scenario accepts", async () => {
    const r = await run(["presets"]);
    expect(r.out).toMatch(/\nallreduce +auto, rabenseifner, recursive_doubling, ring\n/);
    expect(r.out).toMatch(/\nallreduceShortMsg +2KiB +Allreduce: /);
    const j = JSON.parse((await run(["presets", "--json"])).out);
    for (const { collective, algorithms } of j.collectives as { collective: string; algorithms: string[] }[]) {
      for (const a of algorithms) {
        const v = await run(["validate", "scenarios/known-models.yaml", "--set", `machine.network.collectives.algorithms.${collective}=${a}`]);
        expect(v.code, v.err).toBe(0);
      }
    }
    const typo = await run(["validate", "scenarios/known-models.yaml", "--set", "machine.network.colectives=5"]);
    expect(typo.err).toContain("machine.network.colectives: unknown key (did you mean 'collectives'?); known: preset, model, params, overheadFraction, intraNode, eagerLimit, controlBytes, load, collectives");
  });

  it("lists each point-to-point model's parameters and the background load models with theirs, as a scenario writes them", async () => {
    const r = await run(["presets"]);
    expect(r.out).toMatch(/\nhockney +alpha, bandwidth +alpha \+ n\*beta/);
    expect(r.out).toMatch(/\nloggp +L, o, g, bandwidth +LogGP/);
    expect(r.out).toContain("Background load (machine.network.load: { model, params }; default none):");
    expect(r.out).toMatch(/\npiecewise +period +1ms +Length of an interval/);
    const j = JSON.parse((await run(["presets", "--json"])).out);
    const piecewise = (j.backgroundLoadModels as { name: string; params: { name: string; dimension: string | null }[] }[]).find((m) => m.name === "piecewise")!;
    expect(piecewise.params.map((p) => p.name)).toEqual(["period", "mean", "cv"]);
    const v = await run(["validate", "scenarios/known-models.yaml", "--set", "machine.network.load.model=piecewise", "--set", "machine.network.load.params.period=1ms", "--set", "machine.network.load.params.mean=0.2"]);
    expect(v.code, v.err).toBe(0);
  });

  it("prints every parameter of a machine preset with a value that reads back as the preset's, and its source", async () => {
    for (const name of machinePresets.names()) {
      const r = await run(["presets", name, "--json"]);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as { parameters: { key: string; value: unknown; text: string; source: string; defaulted: boolean }[] };
      const config = resolveMachine(name) as unknown as Record<string, Record<string, unknown>>;
      for (const p of doc.parameters) {
        const [group, key] = p.key.split(".");
        // A key the preset leaves out is listed with its default (a sector: its level's line).
        const expected = key === undefined ? config[group] : config[group][key];
        if (p.defaulted) expect(expected, `${name} ${p.key}`).toBeUndefined();
        else expect(p.value, `${name} ${p.key}`).toEqual(expected);
        expect(p.source, `${name} ${p.key}`).not.toBe("");
        const param = MACHINE_PARAMS.find((q) => q.name === p.key)!;
        // The printed text is what a scenario may write: it parses back to the same value.
        // (A key with no value unless a scenario gives one, memory.size, says so instead.)
        if (p.value === null) expect([p.defaulted, p.text], `${name} ${p.key}`).toEqual([true, "(not set)"]);
        else if (param.type === "quantity") expect(parseQuantity(p.text, param.dimension!), `${name} ${p.key}`).toBeCloseTo(p.value as number, 9);
      }
      // Every key a machine: section accepts, but those of a level the preset lacks.
      const levels = doc.parameters.map((p) => p.key.split(".")[0]);
      for (const param of MACHINE_PARAMS) if (!/^l[1-4]\./.test(param.name) || levels.includes(param.name.split(".")[0])) expect(doc.parameters.map((p) => p.key), `${name} ${param.name}`).toContain(param.name);
    }
    const pentium3 = (await run(["presets", "pentium3-xeon-700"])).out;
    expect(pentium3).toContain("memory.size = (not set)  [default]\n");
    expect(pentium3).toContain("counters.presetMap = none  [default]\n");
    // Every level's sector, set or not (itanium2-madison sets none: each is its line).
    const madison = await run(["presets", "itanium2-madison"]);
    for (const [level, line] of [["l1", "64B"], ["l2", "128B"], ["l3", "128B"]]) expect(madison.out).toContain(`${level}.sector = ${line}  [default]\n`);
    const text = await run(["presets", "xeon-2.8ghz-512k"]);
    expect(text.out).toContain("l2.size = 512KiB");
    expect(text.out).toContain("computeEfficiency = 0.3  [calibrated]");
    expect(text.out).toContain("No l3, l4;");
    expect((await run(["presets", "itanium2-madison"])).out).toContain("Interconnect when machine.network names none: numalink-4");
  });

  it("prints an interconnect preset with what each network model derives from it", async () => {
    const r = await run(["presets", "numalink-4"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("alpha = 1us");
    expect(r.out).toContain("bandwidth = 3.2GB/s");
    expect(r.out).toContain("loggp: L 500ns, o 250ns, g 250ns, bandwidth 3.2GB/s");
  });

  it("refuses an unknown name with the nearest and the known ones, exit 2", async () => {
    const r = await run(["presets", "itanium2-madisn"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("ccasim presets: no machine or interconnect preset 'itanium2-madisn' (did you mean 'itanium2-madison'?); known: ");
    expect((await run(["presets", "xeon-2.8ghz"])).err).toContain("(did you mean 'xeon-2.8ghz-512k'?)");
    expect((await run(["presets", "a", "b"])).code).toBe(2);
  });
});
