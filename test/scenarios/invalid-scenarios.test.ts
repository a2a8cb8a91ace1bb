import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { tempDir } from "./fixtures.js";

const BASE = readFileSync("scenarios/known-models.yaml", "utf8");

/** Applies a textual edit to the known-models scenario. */
function edit(from: string | RegExp, to: string): string {
  const out = BASE.replace(from, to);
  if (out === BASE) throw new Error(`edit did not apply: ${String(from)}`);
  return out;
}

/** [what, scenario text, expected line (0 = any), expected fragment of the message] */
const CASES: Array<[string, string, number, string | RegExp]> = [
  ["unknown top-level key", edit("seed: 1", "seed: 1\nsed: 2"), 17, "unknown key 'sed' (did you mean 'seed'?)"],
  ["misspelt machine key", edit("processesPerNode: 2", "procesorsPerNode: 2"), 23, /procesorsPerNode.*did you mean/],
  ["machine key nearest to one of the section's own", edit("processesPerNode: 2", "procesesPerNode: 2"), 23, "machine.procesesPerNode: unknown key (did you mean 'processesPerNode'?)"],
  ["misspelt cache parameter", edit("placement: block", "placement: block\n  l2: { sze: 512KiB }"), 25, "did you mean 'l2.size'?"],
  ["unknown machine preset", edit("preset: xeon-2.8ghz-512k", "preset: xeon-2.8ghz-512"), 21, "did you mean 'xeon-2.8ghz-512k'?"],
  ["wrong unit for a cache size", edit("placement: block", "placement: block\n  l2: { size: 512K }"), 25, /ambiguous|512K/],
  ["bare number for a memory latency", edit("placement: block", "placement: block\n  memory: { latency: 150 }"), 25, "machine.memory.latency: expected a duration such as 30us or 1.5ms, got 150 (a number without unit is ambiguous: add one, for example 150ns)"],
  ["bare number for the clock", edit("placement: block", "placement: block\n  clock: 2800"), 25, /machine\.clock: .*a number without unit is ambiguous/],
  ["bare number for a network latency", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    params: { alpha: 5 }"), 0, /machine\.network\.params\.alpha: .*a number without unit is ambiguous/],
  ["bare number for a collective cost per byte", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    collectives: { params: { reduceCostPerByte: 2 } }"), 0, /machine\.network\.collectives\.params\.reduceCostPerByte: .*a number without unit is ambiguous/],
  ["time unit where a size is expected", edit("placement: block", "placement: block\n  l2: { size: 30us }"), 25, /size|bytes/],
  ["negative node count", edit("nodes: 2", "nodes: -2"), 22, /nodes/],
  ["zero processes per node", edit("processesPerNode: 2", "processesPerNode: 0"), 23, /processesPerNode/],
  ["unknown placement", edit("placement: block", "placement: cyclic"), 24, /block|round-robin/],
  ["unknown network preset", edit("preset: gigabit-ethernet", "preset: gigabit-ethernett"), 26, ":26:5: machine.network.preset: unknown interconnect preset 'gigabit-ethernett' (did you mean 'gigabit-ethernet'?)"],
  ["unknown key of the collectives", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    collectives: { allreduce: ring }"), 27, "machine.network.collectives.allreduce: unknown key; known: algorithms, params"],
  ["collectives that are not a map", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    collectives: ring"), 27, 'machine.network.collectives: must be a map { algorithms, params }, got "ring"'],
  ["collective algorithms that are not a map", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    collectives: { algorithms: [ring] }"), 27, "machine.network.collectives.algorithms: must be a map of collective to algorithm name"],
  ["network parameters that are not a map", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    params: 30us"), 27, 'machine.network.params: must be a map of the model\'s parameters (e.g. { alpha: 30us, bandwidth: 100MB/s }), got "30us"'],
  ["background load that is not a map", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    load: piecewise"), 27, 'machine.network.load: must be a map { model, params }, got "piecewise"'],
  ["a LogGP parameter under the Hockney model", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    params: { L: 3us }"), 27, "machine.network.params.L: not a parameter of the hockney model but of loggp (select it with model: loggp)"],
  ["a forced collective algorithm the run's ranks cannot use", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    collectives: { algorithms: { bcast: scatter_recursive_doubling_allgather } }").replace("nodes: 2", "nodes: 3"), 27, "machine.network.collectives.algorithms.bcast: algorithm 'scatter_recursive_doubling_allgather' cannot run on 6 ranks (it needs a power-of-two number of ranks)"],
  ["unknown metric", edit("metrics: [TIME, PAPI_TOT_CYC]", "metrics: [TIME, PAPI_TOT_CYCLES]"), 29, /PAPI_TOT_CYCLES/],
  ["TIME missing from metrics", edit("metrics: [TIME, PAPI_TOT_CYC]", "metrics: [PAPI_TOT_CYC]"), 29, "metrics must include TIME"],
  ["TIME written in lower case", edit("metrics: [TIME, PAPI_TOT_CYC]", "metrics: [time, PAPI_TOT_CYC]"), 29, ":29:11: metrics[0]: unknown metric 'time' (did you mean 'TIME'?): metric names are case-sensitive, and metrics must include TIME"],
  ["unknown component type", edit("type: dummy\n      params:\n        implementations: { A1", "type: dummmy\n      params:\n        implementations: { A1"), 0, "did you mean 'dummy'?"],
  ["missing connection", edit("    - B.d -> D.work\n", ""), 0, "missing connection: uses port B.d"],
  ["connection to an unknown component", edit("Driver.a -> A.work", "Driver.a -> AA.work"), 0, /no component named 'AA'.*did you mean 'A'/],
  ["connection to an unknown port", edit("Driver.a -> A.work", "Driver.a -> A.wrk"), 0, /has no provides port 'wrk'/],
  ["malformed connection", edit("Driver.a -> A.work", "Driver.a => A.work"), 0, /connections\[0\]/],
  ["port type mismatch", edit('params: { cost: "0.01*x" }', 'params: { cost: "0.01*x", portType: Solver }'), 0, "port type mismatch"],
  ["undefined variable in a cost", edit('A1: "2*x"', 'A1: "2*y"'), 0, /'y'/],
  ["syntax error in a cost", edit('B1: "x^3"', 'B1: "x^^3"'), 0, /B1|x\^\^3/],
  ["unknown implementation", edit("implementation: A1", "implementation: A3"), 0, "'A3' is not one of the implementations: A1, A2"],
  ["proxy on an unknown port", edit("- port: A.work", "- port: A.run"), 0, /no provides port 'run'/],
  ["proxy parameter of an unknown argument", edit("parameters: { x: argument x, implementation: parameter implementation }", "parameters: { x: argument q }"), 0, "no method of port type 'Work' has an argument 'q'"],
  ["__proto__ inside a network's model", edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    __proto__: { alpha: 30us }"), 27, "machine.network.__proto__: '__proto__' is reserved and cannot be a key"],
  ["proxy parameter named __proto__", edit("parameters: { x: argument x, implementation: parameter implementation }", "parameters: { __proto__: argument x }"), 0, "'__proto__' is reserved and cannot be a key"],
  ["proxy parameter of a component parameter it lacks", edit("implementation: parameter implementation", "implementation: parameter implementaton"), 0, "component 'A' has no parameter 'implementaton' to record; its parameters: implementations, implementation, calls, port, portType"],
  ["proxy parameter of a component parameter that is a map", edit("implementation: parameter implementation", "implementation: parameter implementations"), 0, "parameter 'implementations' of 'A' is a map: a record holds one text or number"],
  ["unknown output format", edit("records: [csv, jsonl]", "records: [csv, xml]"), 0, /csv|jsonl/],
  ["workload value of the wrong type", edit("  x: 3", "  x: [3]"), 0, /workload\.x/],
  ["workload variable an expression cannot name", edit("  x: 3", "  x: 3\n  n-iter: 2"), 34, "workload.n-iter: key 'n-iter' is not a name an expression can read: letters, digits and _, starting with a letter or _"],
  ["workload text an expression uses as a number", edit("  x: 3", "  x: three"), 33, 'workload.x: "three" is not a number, but assembly.components.Driver.params.calls[0].args.x uses \'x\''],
  ["YAML syntax error", edit("name: known-models", "name: [known-models"), 0, /./],
  ["duplicate key", edit("seed: 1", "seed: 1\nseed: 2"), 17, /duplicate|unique/i],
  ["record format listed twice", edit("records: [csv, jsonl]", "records: [csv, jsonl, csv]"), 85, 'outputs.records[2]: "csv" is listed twice (first at [0])'],
  ["missing machine section", edit(/machine:\n  preset: xeon-2.8ghz-512k\n/, "machine_: \n  preset: xeon-2.8ghz-512k\n"), 0, /machine/],
];

describe("invalid scenarios", () => {
  it.each(CASES)("%s: located message, exit code 2, no output folder", async (_what, text, line, fragment) => {
    const dir = tempDir();
    const file = join(dir, "bad.yaml");
    writeFileSync(file, text);
    const out = join(dir, "out");
    let stdout = "";
    let stderr = "";
    const code = await main(["run", file, "--out", out], { out: (s) => (stdout += s), err: (s) => (stderr += s) });
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(file);
    if (typeof fragment === "string") expect(stderr).toContain(fragment);
    else expect(stderr).toMatch(fragment);
    if (line > 0) expect(stderr).toContain(`${file}:${line}:`);
    else expect(stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+`));
    expect(existsSync(out)).toBe(false);
    expect(stdout).toBe("");
  });

  it("reports a '__proto__' key together with the file's other mistakes", async () => {
    const dir = tempDir();
    const file = join(dir, "two-mistakes.yaml");
    writeFileSync(file, edit("preset: gigabit-ethernet", "preset: gigabit-ethernet\n    __proto__: { alpha: 30us }").replace("seed: 1", "sed: 1"));
    let stderr = "";
    expect(await main(["validate", file], { out: () => undefined, err: (s) => (stderr += s) })).toBe(2);
    expect(stderr).toContain(`${file}:16:1: sed: unknown key 'sed'`);
    expect(stderr).toContain(`${file}:27:5: machine.network.__proto__: '__proto__' is reserved and cannot be a key`);
  });

  it("reports the mistakes of several components, connections and proxies together, each at its line", async () => {
    const dir = tempDir();
    const file = join(dir, "several.yaml");
    const text = edit('cost: "0.01*x"', 'cost: "0.01*xx"').replace('implementation: A1', 'implementaton: A1').replace("type: dummy\n      params: { cost: \"0.02*x\" }", "type: dumy\n      params: { cost: \"0.02*x\" }").replace("- port: B.work\n      parameters: { x: argument x, implementation: parameter implementation }", "- port: B.work\n      parameters: { x: argument z, implementation: parameter implementation }");
    writeFileSync(file, text);
    let stderr = "";
    expect(await main(["validate", file], { out: () => undefined, err: (s) => (stderr += s) })).toBe(2);
    const lines = stderr.split("\n");
    expect(lines[0]).toBe(`ccasim validate: ${file}: 4 errors`);
    expect(stderr).toContain("assembly.components.A.params.implementaton: unknown parameter 'implementaton' (did you mean 'implementation'?) of a dummy component");
    expect(stderr).toContain("assembly.components.C.params.cost: expression \"0.01*xx\": unknown symbol 'xx' (did you mean 'x'?)");
    expect(stderr).toContain("assembly.components.D.type: unknown component type 'dumy' (did you mean 'dummy'?)");
    expect(stderr).toMatch(/assembly\.proxies\[1\]\.parameters\.x: no method of port type 'Work' has an argument 'z'/);
    // In file order, each with its line.
    const located = lines.slice(1).filter((l) => l !== "").map((l) => Number(/:(\d+):\d+: /.exec(l)![1]));
    expect(located).toEqual([...located].sort((a, b) => a - b));
  });

  it("reports the machine's mistakes, key by key, together with the assembly's and a misspelt placement", async () => {
    const dir = tempDir();
    const file = join(dir, "sections.yaml");
    const text = edit("processesPerNode: 2", "procesorsPerNode: 2\n  clock: 2800\n  l2: { size: 30us }")
      .replace("placement: block", "placement: blok")
      .replace("preset: gigabit-ethernet", "preset: gigabit-ethernett")
      .replace("type: dummy\n      params: { cost: \"0.02*x\" }", "type: dumy\n      params: { cost: \"0.02*x\" }");
    writeFileSync(file, text);
    let stderr = "";
    expect(await main(["validate", file], { out: () => undefined, err: (s) => (stderr += s) })).toBe(2);
    expect(stderr.split("\n")[0]).toBe(`ccasim validate: ${file}: 6 errors`);
    expect(stderr).toContain(`${file}:23:3: machine.procesorsPerNode: unknown key (did you mean 'processorsPerNode'?)`);
    expect(stderr).toMatch(/:24:3: machine\.clock: .*a number without unit is ambiguous/);
    expect(stderr).toMatch(/:25:\d+: machine\.l2\.size: .*30us/);
    expect(stderr).toContain(`${file}:26:3: machine.placement: expected one of 'block', 'round-robin', got "blok"`);
    expect(stderr).toContain("machine.network.preset: unknown interconnect preset 'gigabit-ethernett'");
    expect(stderr).toContain("assembly.components.D.type: unknown component type 'dumy'");
  });

  it("reports a --set mistake as coming from the command line", async () => {
    let stderr = "";
    const code = await main(["validate", "scenarios/known-models.yaml", "--set", "workload.x=[1]"], { out: () => undefined, err: (s) => (stderr += s) });
    expect(code).toBe(2);
    expect(stderr).toContain("--set workload.x=[1]");
  });
});
