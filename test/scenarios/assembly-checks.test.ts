import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { loadScenarioText } from "../../scenarios/index.js";
import { formatBinaryBytes } from "../../scenarios/lang/index.js";
import { tempDir } from "./fixtures.js";

const BASE = readFileSync("scenarios/known-models.yaml", "utf8");

/** The known-models scenario with `from` replaced by `to`, written to a fresh file. */
function scenario(from: string, to: string): string {
  const text = BASE.replace(from, to);
  if (text === BASE) throw new Error(`edit did not apply: ${from}`);
  const file = join(tempDir(), "s.yaml");
  writeFileSync(file, text);
  return file;
}

async function validate(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(["validate", file], { out: (s) => (stdout += s), err: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe("assembly checks", () => {
  it("refuses a dummy component with both cost and implementations", async () => {
    const file = scenario('params: { cost: "0.01*x" }', 'params: { cost: "0.5*x + 2", implementations: { P1: "x" } }');
    const r = await validate(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/assembly\.components\.C\.params\.cost: give one of cost or implementations, not both/);
  });

  it.each([
    ["a wrong provides port", "Driver.a -> A.work", "Driver.a -> A.wrk", "has no provides port 'wrk'"],
    ["a port type mismatch", 'params: { cost: "0.01*x" }', 'params: { cost: "0.01*x", portType: Solver }', "port type mismatch"],
    ["a misspelt method", "type: dummy\n      params: { cost: \"0.01*x\" }", "type: dummy\n      params: { cost: \"0.01*x\", method: runn }", "differs between A.c (run(x)) and C.work (runn(x))"],
    ["a wrong argument name", "type: dummy\n      params: { cost: \"0.01*x\" }", "type: dummy\n      params: { cost: \"0.01*y\", args: [y] }", "differs between"],
    ["a misspelt uses port", "A.c -> C.work", "A.cc -> C.work", "has no uses port 'cc'"],
  ])("reports %s once, without a derived missing connection", async (_what, from, to, fragment) => {
    const r = await validate(scenario(from, to));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(fragment);
    expect(r.stderr).toContain("1 error");
    expect(r.stderr).not.toContain("missing connection");
  });

  it("still reports a uses port that no connection names", async () => {
    const r = await validate(scenario("    - B.d -> D.work\n", "    - Driver.b -> D.work\n"));
    expect(r.stderr).toContain("missing connection: uses port B.d");
  });

  it("warns about a component connected to nothing, naming it, and stays valid", async () => {
    const file = scenario("    D:\n", "    Unused: { type: dummy, params: { portType: Spare } }\n    D:\n");
    const r = await validate(file);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: assembly\\.components\\.Unused: component 'Unused' \\(dummy\\) is connected to nothing`));
    expect(r.stdout).toContain("valid");
  });

  it("does not warn about an alternative implementation a proxy names, and warns about a second unconnected instance of a connected type", async () => {
    const file = scenario("    D:\n", "    Spare: { type: dummy }\n    D:\n");
    const second = await validate(file);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain("component 'Spare' (dummy) is connected to nothing");
    writeFileSync(file, readFileSync(file, "utf8").replace("    - port: B.work\n", "    - port: Spare.work\n      parameters: { x: argument x }\n    - port: B.work\n"));
    const alternative = await validate(file);
    expect(alternative.code, alternative.stderr).toBe(0);
    expect(alternative.stderr).not.toContain("connected to nothing");
  });
});

describe("outputs of an assembly", () => {
  it("takes a trace asked for in the file or by --set", async () => {
    const file = scenario("  callgraph: true\n", "  callgraph: true\n  trace: true\n");
    const inFile = await validate(file);
    expect(inFile.code, inFile.stderr).toBe(0);
    expect(loadScenarioText(BASE, "km.yaml", { set: ["outputs.trace=true"] }).config.outputs.trace).toBe(true);
  });
});

describe("entry point", () => {
  /** A scenario whose entry point is a dummy component's method, declared with `args`. */
  const entryScenario = (args: string): string => {
    const file = join(tempDir(), "entry.yaml");
    writeFileSync(
      file,
      `name: entry
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
workload: { x: 3 }
assembly:
  components:
    A: { type: dummy, params: { cost: "x > 2 ? 5 : 1"${args} } }
  entry: A.work.run
`,
    );
    return file;
  };

  it("refuses an entry method with arguments, which no caller would give, at the entry key", async () => {
    const file = entryScenario("");
    const r = await validate(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:7:3: assembly.entry: entry point A.work.run(x) takes arguments, but each rank calls the entry point with none`);
  });

  it("runs an entry method without arguments, its expressions reading the workload variables", async () => {
    const file = entryScenario(", args: []");
    const out = join(tempDir(), "out");
    let stderr = "";
    const code = await main(["run", file, "--out", out, "--quiet"], { out: () => {}, err: (s) => (stderr += s) });
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as { simulatedTime: number };
    expect(summary.simulatedTime).toBe(5);
  });
});

describe("kernel counts", () => {
  const solver = (q: string) => `name: k
machine: { preset: xeon-2.8ghz-512k, nodes: 1, processesPerNode: 1 }
workload: { Q: ${q} }
assembly:
  components:
    Driver: { type: driver, params: { iterations: 1, calls: [{ port: k, portType: Kernel, method: compute, args: { Q: Q } }] } }
    K: { type: kernel, params: { elements: "2*Q", loads: 2, stores: 1, flops: 1 } }
  connections: [Driver.k -> K.compute]
`;
  async function runIt(q: string, set: string[] = []): Promise<{ code: number; stderr: string }> {
    const file = join(tempDir(), "k.yaml");
    writeFileSync(file, solver(q));
    let stderr = "";
    const code = await main(["validate", file, "--run", ...set], { out: () => undefined, err: (s) => (stderr += s) });
    return { code, stderr };
  }

  it("refuses a fractional element count as a negative one, naming the key and the expression", async () => {
    const frac = await runIt("1000", ["--set", "workload.Q=1000.25"]);
    expect(frac.code).toBe(2);
    expect(frac.stderr).toContain('assembly.components.K.params.elements: expected an integer >= 0, got 2000.5 (elements: "2*Q" with Q = 1000.25)');
    expect(frac.stderr).toContain("--set workload.Q=1000.25");
    const neg = await runIt("-5");
    expect(neg.stderr).toContain('params.elements: expected an integer >= 0, got -10 (elements: "2*Q" with Q = -5)');
    expect((await runIt("1000")).code).toBe(0);
  });
});

describe("memory sanity", () => {
  async function cli(argv: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = "";
    const code = await main(argv, { out: () => undefined, err: (s) => (stderr += s) });
    return { code, stderr };
  }

  it("warns, without failing, when a kernel's arrays exceed a process's share of the node's memory.size", async () => {
    const big = await cli(["validate", "scenarios/kernel-l2.yaml", "--run", "--set", "workload.Q=1e9", "--set", "machine.memory.size=2GiB"]);
    expect(big.code).toBe(0);
    expect(big.stderr).toMatch(/^warning: a kernel on rank \d+ works on \d+ array\(s\) of 1000000000 elements of 8 bytes, \d+(\.\d+)?GiB, more than a process's share of node memory, 1GiB \(machine\.memory\.size 2GiB \/ 2 process\(es\) per node\)/);
    expect(big.stderr.match(/^warning/gm)).toHaveLength(1);
    // A kernel's arrays are known when it runs: without --run, validate does not warn of them.
    const loaded = await cli(["validate", "scenarios/kernel-l2.yaml", "--set", "workload.Q=1e9", "--set", "machine.memory.size=2GiB"]);
    expect(loaded.code).toBe(0);
    expect(loaded.stderr).toBe("");
    let help = "";
    await main(["validate", "--help"], { out: (s) => (help += s), err: () => undefined });
    expect(help).toContain("with --run, a kernel whose arrays exceed a process's\nshare of machine.memory.size");
    const out = join(tempDir(), "run");
    const run = await cli(["run", "scenarios/kernel-l2.yaml", "--quiet", "--out", out, "--set", "workload.Q=1e9", "--set", "machine.memory.size=2GiB"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "summary.json"), "utf8")).warnings[0]).toContain("more than a process's share of node memory");
  });

  it("says nothing when the arrays fit, or when the machine gives no memory size", async () => {
    expect((await cli(["validate", "scenarios/kernel-l2.yaml", "--run", "--set", "machine.memory.size=2GiB"])).stderr).toBe("");
    expect((await cli(["validate", "scenarios/kernel-l2.yaml", "--run", "--set", "workload.Q=1e9"])).stderr).toBe("");
  });
});

describe("formatBinaryBytes", () => {
  it("writes sizes compared in one message in binary units, two decimals at most", () => {
    expect([14.4e9, 2 ** 30, 1536, 100, 8e9, 2 ** 30 - 1, 1023.9].map(formatBinaryBytes)).toEqual(["13.41GiB", "1GiB", "1.5KiB", "100B", "7.45GiB", "1GiB", "1KiB"]);
  });
});
