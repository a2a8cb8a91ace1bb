import { describe, expect, it } from "vitest";
import { formatParams } from "../../engine/index.js";
import { CollectiveConfigError, NetworkConfigError, resolveCollectives, resolveNetwork, pointToPointModels } from "../../machine/index.js";
import { hockney, world } from "./helpers.js";

describe("network configuration", () => {
  it("defaults to Gigabit Ethernet with Hockney, 1 us / 1 GB/s shared memory, 64 KiB eager limit, no load", () => {
    expect(resolveNetwork()).toEqual({
      preset: "gigabit-ethernet",
      interNode: { model: "hockney", params: { alpha: 30, bandwidth: 100e6 } },
      intraNode: { model: "hockney", params: { alpha: 1, bandwidth: 1e9 } },
      eagerLimit: 65536,
      controlBytes: 0,
      load: { model: "none", params: {} },
    });
  });

  it("takes what params leave out from the default preset (the machine's interconnect), and names it only then", () => {
    const alpha = resolveNetwork({ params: { alpha: 5 } }, "numalink-4");
    expect(alpha.preset).toBe("numalink-4");
    expect(alpha.interNode).toEqual({ model: "hockney", params: { alpha: 5, bandwidth: resolveNetwork({}, "numalink-4").interNode.params.bandwidth } });
    const loggp = resolveNetwork({ model: "loggp", params: { L: 1, o: 1, g: 1 } });
    expect(loggp.interNode.params).toEqual({ L: 1, o: 1, g: 1, bandwidth: 100e6 });
    expect(loggp.preset).toBe("gigabit-ethernet");
    // Every parameter given: no preset supplied anything.
    const own = resolveNetwork({ params: { alpha: 5, bandwidth: 1e9 } });
    expect([own.preset, own.interNode.params]).toEqual([undefined, { alpha: 5, bandwidth: 1e9 }]);
  });

  it("derives LogGP parameters from a preset and lets explicit parameters override them", () => {
    const r = resolveNetwork({ preset: "myrinet-2000", model: "loggp", params: { g: 4 } });
    expect(r.interNode.params).toEqual({ L: 3.5, o: 1.75, g: 4, bandwidth: 245e6 });
  });

  it("names the offending key, with the nearest known name", () => {
    expect(() => resolveNetwork({ preset: "myrinet2000" })).toThrow(/network\.preset: unknown interconnect preset 'myrinet2000' \(did you mean 'myrinet-2000'\?\)/);
    expect(() => resolveNetwork({ model: "hockney", params: { alpah: 3, bandwidth: 1 } })).toThrow(/network\.params\.alpah: unknown parameter \(did you mean 'alpha'\?\)/);
    expect(() => resolveNetwork({ intraNode: { model: "loggp", params: { L: 1, o: 1, g: 1 } } })).toThrow(/network\.intraNode\.params\.bandwidth: required/);
    expect(() => resolveNetwork({ preset: "numalink-4", params: { alpha: -1 } })).toThrow(/network\.params\.alpha: must be >= 0/);
    expect(() => resolveNetwork({ load: { model: "piecewise", params: { period: 0 } } })).toThrow(/network\.load\.params\.period/);
    expect(() => resolveNetwork({ eagerlimit: 5 } as never)).toThrow(/did you mean 'eagerLimit'/);
    const e = (() => {
      try {
        resolveNetwork({ model: "logp" });
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(NetworkConfigError);
    expect((e as NetworkConfigError).isInputError).toBe(true);
  });

  it("points a model parameter given beside the preset to params", () => {
    expect(() => resolveNetwork({ preset: "gigabit-ethernet", alpha: 3 } as never)).toThrow(/network\.alpha: unknown key \(a parameter of the hockney model: give it as params\.alpha\)/);
    expect(() => resolveNetwork({ bandwidth: 1e8 } as never)).toThrow(/network\.bandwidth: unknown key \(a parameter of the hockney and loggp models: give it as params\.bandwidth\)/);
  });

  it("takes the default model of the intra-node path and of the load when a section gives only parameters, and refuses names that are not text", () => {
    expect(resolveNetwork({ intraNode: { params: { alpha: 5 } } }).intraNode).toEqual({ model: "hockney", params: { alpha: 5, bandwidth: 1e9 } });
    expect(resolveNetwork({ intraNode: { model: "hockney", params: { bandwidth: 2e9 } } }).intraNode).toEqual({ model: "hockney", params: { alpha: 1, bandwidth: 2e9 } });
    expect(() => resolveNetwork({ intraNode: { model: "loggp", params: { L: 1 } } })).toThrow(/network\.intraNode\.params\.o: required/);
    expect(resolveNetwork({ load: { params: {} } }).load).toEqual({ model: "none", params: {} });
    expect(() => resolveNetwork({ intraNode: { model: 5 } } as never)).toThrow(/network\.intraNode\.model: must be a model name, got 5/);
    expect(() => resolveNetwork({ preset: 5 } as never)).toThrow(/network\.preset: must be a preset name, got 5/);
  });

  it("documents every model parameter with its unit", () => {
    const text = formatParams(pointToPointModels.get("loggp").params);
    expect(text).toMatch(/L\s+<time>/);
    expect(text).toMatch(/bandwidth\s+<bandwidth>/);
  });

  it("validates collective choices and thresholds", () => {
    expect(() => resolveCollectives({ algorithms: { allreduce: "rabenseiffner" } })).toThrow(/did you mean 'rabenseifner'/);
    expect(() => resolveCollectives({ algorithms: { allreduc: "ring" } as never })).toThrow(CollectiveConfigError);
    expect(() => resolveCollectives({ params: { bcastShortMsg: -1 } })).toThrow(/collectives\.params\.bcastShortMsg/);
    const w = world(6, hockney(1, 1e9), { collectives: { algorithms: { allgather: "recursive_doubling" } } });
    w.launch(function* (c) {
      yield* c.allgather(8);
    });
    expect(() => w.run()).toThrow(/cannot run on 6 ranks/);
  });

  it("refuses sections that are not maps instead of ignoring them or reading them by index", () => {
    expect(() => resolveNetwork("myrinet-2000" as never)).toThrow(/^network: must be a map \{ preset, model, params, \.\.\. \}, got "myrinet-2000"$/);
    expect(() => resolveNetwork({ params: 5 } as never)).toThrow(/network\.params: must be a map of the model's parameters/);
    expect(() => resolveNetwork({ params: [1] } as never)).toThrow(/network\.params: must be a map/);
    expect(() => resolveNetwork({ intraNode: "shm" } as never)).toThrow(/network\.intraNode: must be a map \{ model, params \}, got "shm"/);
    expect(() => resolveNetwork({ load: { model: "piecewise", params: 0.3 } } as never)).toThrow(/network\.load\.params: must be a map/);
    expect(() => resolveCollectives("ring" as never)).toThrow(/^collectives: must be a map \{ algorithms, params \}, got "ring"$/);
    expect(() => resolveCollectives({ algorithms: "ring" } as never)).toThrow(/collectives\.algorithms: must be a map/);
    expect(() => resolveCollectives({ params: 5 } as never)).toThrow(/collectives\.params: must be a map/);
    // Absent (or an empty YAML key, null) is no section.
    expect(resolveNetwork({ params: null, load: null } as never).interNode.params).toEqual({ alpha: 30, bandwidth: 100e6 });
    expect(resolveCollectives(null).reduceCostPerByte).toBe(0.001);
  });

  it("refuses a value written empty (null), where a section written empty is no section, instead of taking the default", () => {
    const empty = "got null (an empty value): give a value or leave the key out";
    expect(() => resolveNetwork({ params: { alpha: null } } as never)).toThrow(`network.params.alpha: must be a duration, ${empty}`);
    expect(() => resolveNetwork({ eagerLimit: null } as never)).toThrow(`network.eagerLimit: must be a size, ${empty}`);
    expect(() => resolveNetwork({ overheadFraction: null } as never)).toThrow(`network.overheadFraction: must be a number, ${empty}`);
    expect(() => resolveNetwork({ model: null } as never)).toThrow(`network.model: must be a name, ${empty}`);
    expect(() => resolveNetwork({ load: { model: "piecewise", params: { mean: null } } } as never)).toThrow(`network.load.params.mean: must be a number, ${empty}`);
    expect(() => resolveCollectives({ params: { bcastShortMsg: null } } as never)).toThrow(`collectives.params.bcastShortMsg: must be a size, ${empty}`);
  });

  it("refuses a key of intraNode or load other than model and params, naming the nearest, instead of ignoring it", () => {
    expect(() => resolveNetwork({ intraNode: { model: "hockney", parms: { alpha: 2 } } } as never)).toThrow("network.intraNode.parms: unknown key (did you mean 'params'?); known: model, params");
    expect(() => resolveNetwork({ load: { modl: "piecewise" } } as never)).toThrow("network.load.modl: unknown key (did you mean 'model'?); known: model, params");
    expect(() => resolveNetwork({ load: { model: "none", seed: 3 } } as never)).toThrow("network.load.seed: unknown key; known: model, params");
  });

  it("names the model a parameter belongs to when the chosen model lacks it", () => {
    expect(() => resolveNetwork({ params: { L: 3 } })).toThrow("network.params.L: not a parameter of the hockney model but of loggp (select it with model: loggp); hockney takes: alpha, bandwidth");
    expect(() => resolveNetwork({ model: "loggp", params: { alpha: 3 } })).toThrow("network.params.alpha: not a parameter of the loggp model but of hockney (select it with model: hockney)");
    expect(() => resolveNetwork({ intraNode: { params: { g: 1 } } })).toThrow("select it with intraNode.model: loggp");
    expect(() => resolveNetwork({ params: { beta: 0.01 } })).toThrow("network.params.beta: unknown parameter: give its inverse, bandwidth");
    expect(() => resolveNetwork({ params: { bandwidth: 0 } })).toThrow("network.params.bandwidth: must be more than 0, got 0");
    // A load parameter under the default load model, none, which takes none.
    expect(() => resolveNetwork({ load: { params: { mean: 0.3 } } })).toThrow(
      "network.load.params.mean: not a parameter of the none load model but of piecewise (select it with load.model: piecewise); none takes no parameters",
    );
    expect(resolveNetwork({ load: { model: "piecewise", params: { mean: 0.3 } } }).load.params.mean).toBe(0.3);
    expect(() => resolveNetwork({ load: { params: { foo: 1 } } })).toThrow("network.load.params.foo: unknown parameter; the model takes no parameters");
  });

  it("refuses a forced algorithm that cannot run on a communicator's ranks, saying what it needs", () => {
    const c = resolveCollectives({ algorithms: { allgather: "recursive_doubling", bcast: "binomial" } });
    expect(() => c.checkRanks(8)).not.toThrow();
    expect(() => c.checkRanks(6)).toThrow("collectives.algorithms.allgather: algorithm 'recursive_doubling' cannot run on 6 ranks (it needs a power-of-two number of ranks)");
  });

  it("selects collective algorithms like MPICH by size and process count", () => {
    const c = resolveCollectives();
    expect(c.autoName("allreduce", 64, 2048)).toBe("recursive_doubling");
    expect(c.autoName("allreduce", 64, 2056)).toBe("rabenseifner");
    expect(c.autoName("allreduce", 1024, 4096)).toBe("recursive_doubling"); // 512 elements < 1024 ranks
    expect(c.autoName("bcast", 64, 12287)).toBe("binomial");
    expect(c.autoName("bcast", 4, 1e6)).toBe("binomial");
    expect(c.autoName("bcast", 64, 12288)).toBe("scatter_recursive_doubling_allgather");
    expect(c.autoName("bcast", 48, 12288)).toBe("scatter_ring_allgather");
    expect(c.autoName("bcast", 64, 524288)).toBe("scatter_ring_allgather");
    expect(c.autoName("allgather", 64, 100)).toBe("recursive_doubling");
    expect(c.autoName("allgather", 48, 100)).toBe("bruck");
    expect(c.autoName("allgather", 48, 10000)).toBe("ring");
    expect(c.autoName("alltoall", 16, 256)).toBe("bruck");
    expect(c.autoName("alltoall", 4, 256)).toBe("scattered");
    expect(c.autoName("alltoall", 16, 32769)).toBe("pairwise");
    expect(c.autoName("barrier", 7, 0)).toBe("dissemination");
    expect(c.autoName("reduce", 16, 2048)).toBe("binomial");
    expect(c.autoName("reduce", 16, 4096)).toBe("reduce_scatter_gather");
  });
});
