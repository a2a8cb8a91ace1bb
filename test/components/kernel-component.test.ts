import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText, ScenarioErrors } from "../../scenarios/index.js";

/** One rank calling a kernel component once with N = 4096 elements; `params` are the kernel's. */
const scenario = (params: string) => `
name: kernel-params
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
metrics: [TIME, PAPI_L1_DCA]
workload: { N: 4096 }
assembly:
  components:
    Driver: { type: driver, params: { calls: [{ port: k, portType: Kernel, method: compute, args: { N: N } }] } }
    K: { type: kernel, params: { args: [N], elements: N, ${params} } }
  connections: [Driver.k -> K.compute]
`;

const run = (params: string) => executeScenario(loadScenarioText(scenario(params), "kernel.yaml"));

/** The message of the located error a run of the scenario throws. */
function runError(params: string): string {
  try {
    run(params);
  } catch (e) {
    if (e instanceof ScenarioErrors || (e as { isInputError?: boolean }).isInputError) return (e as Error).message;
    throw e;
  }
  throw new Error("expected the run to fail");
}

/** The message of the located error loading `text` throws. */
function loadErrorOf(text: string): string {
  try {
    loadScenarioText(text, "kernel.yaml");
  } catch (e) {
    if (e instanceof ScenarioErrors) return e.message;
    throw e;
  }
  throw new Error("expected the load to fail");
}

describe("the kernel component's parameters", () => {
  it("takes the default stride from the elements, whatever the argument is called", () => {
    const strided = run("pattern: strided");
    const explicit = run("pattern: strided, stride: 64");
    expect(strided.result.simulatedTime).toBe(explicit.result.simulatedTime);
  });

  it("passes floatLoads to the node model: on the Itanium 2 they decide whether the arrays go through the L1D", () => {
    const counters = (params: string) => {
      const text = scenario(params).replace("xeon-2.8ghz-512k", "itanium2-madison").replace("PAPI_L1_DCA", "PAPI_L1_DCM, L2_DATA_REFERENCES_L2_ALL") + "  proxies: [{ port: K.compute, parameters: { N: argument N } }]\n";
      return executeScenario(loadScenarioText(text, "kernel.yaml")).result.mastermind!.records[0]!.counters;
    };
    // One load and one store per double (the defaults), 4096 doubles = 32 KiB, twice the L1D.
    // Floating-point loads (the default with flops): the L1D never sees them; the L2 sees every
    // load and every (written-through) store.
    expect(counters("")).toMatchObject({ PAPI_L1_DCM: 0, L2_DATA_REFERENCES_L2_ALL: 8192 });
    // Integer loads: the array goes through the L1D, one miss per 64-byte line, plus the stores.
    expect(counters("floatLoads: 0")).toMatchObject({ PAPI_L1_DCM: 512, L2_DATA_REFERENCES_L2_ALL: 512 + 4096 });
    // (A constant 2 is refused at load; one a call computes, when it runs.)
    expect(runError("floatLoads: 'N / N + 1'")).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.floatLoads: expected a number in \[0, loads \(1\)\], got 2/);
  });

  it("passes fmaFraction to the node model: an FMA is two flops in one instruction", () => {
    const counters = (params: string) => {
      const text = scenario(`flops: 2, ${params}`).replace("PAPI_L1_DCA", "PAPI_FP_OPS, PAPI_FP_INS, PAPI_TOT_INS") + "  proxies: [{ port: K.compute, parameters: { N: argument N } }]\n";
      return executeScenario(loadScenarioText(text, "kernel.yaml")).result.mastermind!.records[0]!.counters;
    };
    const none = counters("");
    const all = counters("fmaFraction: 1");
    // 4096 elements of 2 flops: 8192 operations either way; as FMAs, half the instructions.
    expect(none).toMatchObject({ PAPI_FP_OPS: 8192, PAPI_FP_INS: 8192 });
    expect(all).toMatchObject({ PAPI_FP_OPS: 8192, PAPI_FP_INS: 4096 });
    expect(none.PAPI_TOT_INS! - all.PAPI_TOT_INS!).toBe(4096);
    expect(counters("fmaFraction: 'N / 8192'")).toMatchObject({ PAPI_FP_INS: 6144 });
    // Out of [0, 1]: refused at load when constant, in the run when computed.
    expect(loadErrorOf(scenario("fmaFraction: 1.5"))).toMatch(/assembly\.components\.K\.params\.fmaFraction: expected a number in \[0, 1\], got 1\.5/);
    expect(runError("fmaFraction: 'N / 1024'")).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.fmaFraction: expected a number in \[0, 1\], got 4/);
  });

  it("takes a count within rounding of a whole number as that number, at load and in the run, as every count", () => {
    const counters = (text: string) => executeScenario(loadScenarioText(text + "  proxies: [{ port: K.compute, parameters: { N: argument N } }]\n", "kernel.yaml")).result.mastermind!.records[0]!.counters;
    // 0.1 * A * 10 is 3.0000000000000004 for A = 3; 0.3 / 0.1 is 2.9999999999999996.
    const rounded = scenario("loads: 2, arrays: '0.1 * A * 10', passes: '0.3 / 0.1'").replace("workload: { N: 4096 }", "workload: { N: 4096, A: 3 }");
    const whole = counters(scenario("loads: 2, arrays: 3, passes: 3"));
    expect(counters(rounded)).toEqual(whole);
    expect(whole).not.toEqual(counters(scenario("loads: 2, arrays: 2, passes: 2")));
    // In the run too, where the value comes from a call's argument (N * 0.1 * 3 * 10 / 3 is 4096.000000000001).
    const fromArgument = scenario("").replace("elements: N, ", "elements: 'N * 0.1 * 3 * 10 / 3' ");
    expect(fromArgument).toContain("N * 0.1");
    expect(counters(fromArgument)).toEqual(counters(scenario("")));
  });

  it("refuses a stride, an array count or a pass count out of range instead of replacing it", () => {
    // Expressions that evaluate out of range (N = 4096), when the run evaluates them.
    expect(runError("pattern: strided, stride: N - 4096")).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.stride: expected an integer >= 1, got 0/);
    expect(runError("arrays: N - 4096")).toMatch(/assembly\.components\.K\.params\.arrays: expected an integer >= 1, got 0/);
    expect(runError("elementSize: N - 4096")).toMatch(/assembly\.components\.K\.params\.elementSize: expected an integer >= 1, got 0 \(elementSize: "N - 4096" with N = 4096\)/);
    expect(runError("passes: N - 4097")).toMatch(/assembly\.components\.K\.params\.passes: expected an integer >= 0, got -1/);
  });

  it("refuses constant quantities out of range at load, as ccasim validate does, at their key", () => {
    const loadError = (params: string): string => loadErrorOf(scenario(params));
    expect(loadError("pattern: strided, stride: 0")).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.stride: expected an integer >= 1, got 0/);
    expect(loadError("arrays: 0")).toMatch(/assembly\.components\.K\.params\.arrays: expected an integer in \[1, 64\], got 0/);
    expect(loadError("passes: '-1'")).toMatch(/assembly\.components\.K\.params\.passes: expected an integer >= 0, got -1/);
    expect(loadError("elementSize: 0.5")).toMatch(/assembly\.components\.K\.params\.elementSize: expected an integer >= 1, got 0\.5/);
    expect(loadError("loads: -1")).toMatch(/assembly\.components\.K\.params\.loads: expected a number >= 0, got -1/);
    expect(loadError("loads: 2, floatLoads: 3")).toMatch(/assembly\.components\.K\.params\.floatLoads: expected a number in \[0, loads \(2\)\], got 3/);
    expect(loadError("elementSize: 1e20")).toMatch(/params\.elementSize: expected elements x elementSize x arrays of at most 2\^50 bytes .*, got 100000000000000000000/);
    expect(loadError("pattern: sequental")).toMatch(/params\.pattern: expected sequential, strided or random, got "sequental" \(did you mean 'sequential'\?\)/);
    // Every key's problem at once.
    const all = loadError("elementSize: 0, arrays: 65, pattern: strided, stride: 0");
    expect(all).toMatch(/3 errors/);
    expect(all).toMatch(/params\.elementSize: .*\n.*params\.arrays: .*\n.*params\.stride: /);
    // A size written with a unit: expressions are plain numbers.
    expect(loadError("elementSize: 72B")).toMatch(/params\.elementSize: 'B' is a unit, but expressions are plain numbers \(in expression "72B"\): write the size as a number of bytes \(72B is 72\)/);
    // A stride that no call uses (a sequential kernel ignores it) is left alone.
    expect(() => loadScenarioText(scenario("pattern: sequential, stride: 0"), "kernel.yaml")).not.toThrow();
  });

  it("says how many loads and stores there are when they are fewer than the arrays", () => {
    expect(loadErrorOf(scenario("arrays: 8, loads: 2, stores: 1"))).toMatch(
      /assembly\.components\.K\.params\.loads: expected loads \+ stores >= arrays \(8\): every array access is a load or a store, got 2 \+ 1 = 3$/m,
    );
    expect(runError("arrays: 3, loads: N - 4095, stores: N - 4096")).toMatch(/params\.loads: expected loads \+ stores >= arrays \(3\): .*, got 1 \+ 0 = 1/);
  });

  it("refuses at load a quantity that workload values alone put out of range, naming them", () => {
    const withWorkload = (params: string, workload: string) => scenario(params).replace("workload: { N: 4096 }", `workload: { N: 4096, ${workload} }`);
    expect(() => loadScenarioText(withWorkload("elementSize: ES", "ES: 0"), "kernel.yaml")).toThrow(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.elementSize: expected an integer >= 1, got 0 \(from 'ES' with ES = 0\)/);
    expect(() => loadScenarioText(withWorkload("arrays: NA * 2", "NA: 40"), "kernel.yaml")).toThrow(/params\.arrays: expected an integer in \[1, 64\], got 80 \(from 'NA \* 2' with NA = 40\)/);
    // Values a call passes are checked when it runs (the argument N shadows the workload's N).
    expect(() => loadScenarioText(withWorkload("arrays: N - 4096", "ES: 8"), "kernel.yaml")).not.toThrow();
    // One that does not evaluate to a finite number would fail every run the same way: refused at load, at its key.
    expect(loadErrorOf(withWorkload("elementSize: '8 / ES'", "ES: 0"))).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.elementSize: expression "8 \/ ES" evaluates to Infinity \(not a finite number\) for ES=0/);
    expect(loadErrorOf(scenario("loads: NaN"))).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.loads: expression "NaN" evaluates to NaN \(not a finite number\)$/m);
    expect(loadErrorOf(withWorkload("elementSize: '4 - 4'", "ES: 8"))).toMatch(/params\.elementSize: expected an integer >= 1, got 0 \(from '4 - 4'\)/);
  });

  it("reports this run's miss engines in the summary, however often one loaded scenario runs", () => {
    const loaded = loadScenarioText(scenario("pattern: strided"), "kernel.yaml");
    const first = executeScenario(loaded).summary;
    expect(first).toMatchObject({ missEngines: { analytical: 1, reference: 0 } });
    expect(executeScenario(loaded).summary).toEqual(first);
  });
});

describe("a kernel whose pattern a text argument picks", () => {
  const text = (dirArgs: readonly string[]) => `
name: kernel-direction
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1, noise: { computeCv: 0, memoryCv: 0, overflowCv: 0, osRate: 0 } }
metrics: [TIME]
workload: { N: 250000 }
assembly:
  components:
    Driver:
      type: driver
      params:
        calls:
          - { port: k, portType: Kernel, method: compute, args: { N: N, dir: ${dirArgs[0]} } }
          - { port: k, portType: Kernel, method: compute, args: { N: N, dir: ${dirArgs[1]} } }
    K: { type: kernel, params: { args: [N, dir], elements: N, patternArg: dir, patterns: { x: sequential, y: strided } } }
  connections: [Driver.k -> K.compute]
  proxies: [{ port: K.compute, parameters: { N: argument N, mode: argument dir } }]
`;

  it("takes quoted literals from a caller's calls, records them as text, and times each pattern as that pattern", () => {
    const art = executeScenario(loadScenarioText(text(["\"'x'\"", "'\"y\"'"]), "direction.yaml"));
    const records = art.result.mastermind!.records;
    expect(records.map((r) => r.parameters.mode)).toEqual(["x", "y"]);
    const [seq, strided] = records.map((r) => r.wallTime);
    // 2 MB, four times the 512 kB L2: the strided sweep is several times slower (noise is off).
    expect(strided! / seq!).toBeGreaterThan(3);
    const sequentialOnly = executeScenario(loadScenarioText(text(["\"'x'\"", "\"'x'\""]), "direction.yaml")).result.mastermind!.records.map((r) => r.wallTime);
    expect(sequentialOnly).toEqual([seq, seq]);
  });

  it("refuses patterns that are no map, at the key, instead of reading a list by index or a number as none", () => {
    for (const value of ["[sequential, strided]", "5", "strided"]) {
      const message = loadErrorOf(text(["\"'x'\"", "\"'y'\""]).replace("patterns: { x: sequential, y: strided }", `patterns: ${value}`));
      expect(message, value).toMatch(/kernel\.yaml:\d+:\d+: assembly\.components\.K\.params\.patterns: must map values of the pattern argument to patterns \(sequential, strided, random\), got /);
    }
  });

  it("refuses text where a component reads a number, naming the argument and the text", () => {
    // The kernel's N is a number: text there is a mistake of the caller.
    const wrong = text(["\"'x'\"", "\"'y'\""]).replace("args: { N: N, dir: \"'x'\" }", "args: { N: \"'many'\", dir: \"'x'\" }");
    expect(() => executeScenario(loadScenarioText(wrong, "direction.yaml"))).toThrow(/K: argument 'N' is the text 'many', but an expression of this component reads it as a number/);
  });

  /** A driver making `calls` (YAML flow list) to a dummy W of arguments x and mode whose cost is 3x, its mode proxied. */
  const toDummy = (calls: string) => `
name: modes
seed: 1
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
metrics: [TIME]
assembly:
  components:
    Driver: { type: driver, params: { calls: ${calls} } }
    W: { type: dummy, params: { args: [x, mode], cost: "3*x" } }
  connections: [Driver.k -> W.work]
  proxies: [{ port: W.work, parameters: { mode: argument mode } }]
`;

  it("lets text reach an argument no expression reads, for a proxy to record", () => {
    // The dummy's cost reads x, not mode: the text is recorded, not read.
    const scenario = toDummy(`[{ port: k, args: { x: 2, mode: "'fast'" } }]`);
    const art = executeScenario(loadScenarioText(scenario, "modes.yaml"));
    expect(art.result.mastermind!.records.map((r) => [r.parameters.mode, r.wallTime])).toEqual([["fast", 6]]);
    expect(() => executeScenario(loadScenarioText(scenario.replace('cost: "3*x"', 'cost: "3*x + mode"'), "modes.yaml"))).toThrow(/W: argument 'mode' is the text 'fast', but an expression of this component reads it as a number/);
  });

  it("refuses calls of one method that pass different arguments, naming both", () => {
    const scenario = toDummy(`[{ port: k, args: { x: 2, mode: "'a'" } }, { port: k, args: { mode: "'b'", x: 3 } }, { port: k, args: { x: 4 } }]`);
    expect(() => loadScenarioText(scenario, "calls.yaml")).toThrow(/calls\[2\]\.args: passes \(x\) to k\.run\(\), which calls\[0\] calls with \(mode, x\): every call of a method passes the same arguments/);
    // The same names in another order are the same arguments.
    expect(() => loadScenarioText(scenario.replace(", { port: k, args: { x: 4 } }", ""), "calls.yaml")).not.toThrow();
  });

  it("keeps a bare word an expression: a misspelt variable is an error, not text", () => {
    expect(() => loadScenarioText(text(["x", "y"]), "direction.yaml")).toThrow(/calls\[0\]\.args\.dir: .*unknown symbol 'x'/);
  });
});
