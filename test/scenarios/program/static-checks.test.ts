import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../../scenarios/index.js";
import { errorsOf, programScenario } from "./helpers.js";

const load = (program: unknown, opts: Parameters<typeof programScenario>[1] = {}) => loadScenarioText(programScenario(program, opts), "model.yaml");
const errors = (program: unknown, opts: Parameters<typeof programScenario>[1] = {}) => errorsOf(() => load(program, opts)).join("\n");

describe("static checks of program models", () => {
  it("accepts a well-formed model", () => {
    const sc = load({ globals: { x: "int" }, main: [{ action: "A", code: "x = pid + 1", cost: "x * 2" }] });
    expect(sc.program!.elements.map((e) => e.name)).toEqual(["A"]);
  });

  it("refuses records or a call graph asked of a program model, in the file or by --set, and writes none by default", () => {
    const main = { main: [{ action: "A", cost: 1 }] };
    const asking = programScenario(main).replace('"records":[]', '"records":["csv"]');
    expect(errorsOf(() => loadScenarioText(asking, "model.yaml")).join("\n")).toMatch(/model\.yaml:\d+:\d+: outputs\.records: a program model writes no per-invocation records/);
    expect(errorsOf(() => loadScenarioText(programScenario(main), "model.yaml", { set: ["outputs.callgraph=true"] })).join("\n")).toMatch(/outputs\.callgraph: a program model writes no call graph .*\(from --set outputs\.callgraph=true\)/);
    // Left out, the defaults (records and a call graph, for assemblies) are not asked for.
    const defaults = JSON.parse(programScenario(main)) as { outputs: Record<string, unknown> };
    delete defaults.outputs.records;
    delete defaults.outputs.callgraph;
    expect(() => loadScenarioText(JSON.stringify(defaults), "model.yaml")).not.toThrow();
  });

  it("refuses a for loop's variable set inside the loop: in its body, by a nested loop or in an activity it calls, at each place", () => {
    const e = errorsOf(() =>
      load({
        globals: { k: "int", s: "int" },
        activities: { Bump: { locals: { q: "int" }, do: [{ code: "k = k + 1; q = 3" }] } },
        main: [
          {
            for: "k",
            count: 3,
            do: [{ action: "A", code: "s = s + k; k = k + 5", cost: "k" }, { activity: "Bump" }, { for: "k", count: 2, do: [{ action: "B", cost: 1 }] }],
          },
        ],
      }),
    );
    expect(e).toHaveLength(3);
    expect(e[0]).toMatch(/model\.yaml:\d+:\d+: program\.activities\.Bump\.do\[0\]\.code: assigns the variable 'k' of the enclosing for loop \(program\.main\[0\]\), whose iterations are fixed at entry/);
    expect(e[1]).toMatch(/program\.main\[0\]\.do\[0\]\.code: assigns the variable 'k' of the enclosing for loop \(program\.main\[0\]\)/);
    expect(e[2]).toMatch(/program\.main\[0\]\.do\[2\]\.for: loops over the variable 'k' of the enclosing for loop \(program\.main\[0\]\)/);
  });

  it("accepts a recursive activity looping over its own local: each entry has its own copy", () => {
    const recursive = {
      globals: { d: "int" },
      activities: { R: { locals: { k: "int" }, do: [{ for: "k", count: 2, do: [{ code: "d = d + 1" }, { if: "d < 3", then: [{ activity: "R" }] }] }] } },
      main: [{ activity: "R" }],
    };
    expect(() => load(recursive)).not.toThrow();
    // A global loop variable set by the same recursion is still refused.
    const global = { globals: { d: "int", k: "int" }, activities: { R: { do: [{ for: "k", count: 2, do: [{ code: "d = d + 1" }, { if: "d < 3", then: [{ activity: "R" }] }] }] } }, main: [{ activity: "R" }] };
    expect(errorsOf(() => load(global)).join("\n")).toMatch(/program\.activities\.R\.do\[0\]\.for: loops over the variable 'k' of the enclosing for loop/);
  });

  it("accepts a loop variable set after its loop, and another variable set inside it", () => {
    expect(() => load({ globals: { k: "int", s: "int" }, main: [{ for: "k", count: 3, do: [{ code: "s = s + k" }] }, { code: "k = 0" }, { for: "k", count: 2, do: [{ action: "A", cost: "k" }] }] })).not.toThrow();
  });

  it("reports a cost function cycle once, and the functions off the cycle stay usable", () => {
    const e = errorsOf(() => load({ functions: { "Msg(n)": "8 * Msg(n)", "Compute(n)": "2 * n" }, main: [{ action: "A", cost: "Compute(3)" }, { action: "B", cost: "Msg(3)" }] }));
    expect(e).toHaveLength(1);
    expect(e[0]).toMatch(/program\.functions\["Msg\(n\)"\]: cost function cycle: Msg -> Msg$/);
  });

  it("suggests the nearest cost function for a misspelt one", () => {
    expect(errors({ functions: { "Compute(n)": "2 * n" }, main: [{ action: "A", cost: "Comptue(3)" }] })).toMatch(/program\.main\[0\]\.cost: unknown function 'Comptue' \(did you mean the cost function 'Compute'\?\) in expression "Comptue\(3\)"/);
  });

  it("names undefined variables with the nearest known name and their location", () => {
    const e = errors({ globals: { alpha: "double" }, main: [{ action: "A", cost: "alpah * 2" }] });
    expect(e).toMatch(/model\.yaml:\d+:\d+: program\.main\[0\]\.cost: unknown symbol 'alpah' \(did you mean 'alpha'\?\)/);
  });

  it("advises a number and a unit for a cost written as a duration", () => {
    expect(errors({ main: [{ action: "A", cost: "5ms" }] })).toMatch(/program\.main\[0\]\.cost: 'ms' is a unit, but expressions are plain numbers \(in expression "5ms"\): write the cost as a number in program\.costUnit, or give the element 'unit: ms'$/);
  });

  it("rejects assignments to undeclared or read-only variables", () => {
    expect(errors({ main: [{ code: "y = 1" }] })).toMatch(/assignment to undeclared variable 'y'/);
    expect(errors({ main: [{ code: "pid = 1" }] })).toMatch(/'pid' is a read-only process variable/);
  });

  it("rejects a constant condition as an unreachable branch", () => {
    expect(errors({ main: [{ if: "false", then: [{ action: "A", cost: 1 }] }] })).toMatch(/condition "false" is always false: its branch is unreachable/);
    expect(errors({ main: [{ if: "2 > 1", then: [{ action: "A", cost: 1 }], else: [{ action: "B", cost: 1 }] }] })).toMatch(/always true: the branches after it are unreachable/);
  });

  it("warns about branches that constant propagation shows are never taken", () => {
    const sc = load({ globals: { GV: "int", k: "int" }, main: [{ code: "GV = 1" }, { if: "GV == 0", then: [{ action: "A", cost: 1 }] }, { for: "k", count: 2, do: [{ code: "GV = GV + 1" }] }, { if: "GV == 5", then: [{ action: "B", cost: 1 }] }] });
    expect(sc.program!.warnings).toHaveLength(1);
    expect(sc.program!.warnings[0]).toMatch(/program\.main\[1\]\.if: condition "GV == 0" is always false here \(GV = 1\): its branch is never taken/);
  });

  it("says that an always-true condition with nothing after it in its chain has its branch always taken", () => {
    const e = errors({ main: [{ if: "1", then: [{ action: "A", cost: 1 }] }] });
    expect(e).toMatch(/condition "1" is always true: its branch is always taken \(write its elements without the if\)/);
    expect(e).not.toMatch(/branches after it/);
    const sc = load({ globals: { GV: "int" }, main: [{ code: "GV = 1" }, { if: "GV == 1", then: [{ action: "A", cost: 1 }] }] });
    expect(sc.program!.warnings).toEqual([expect.stringMatching(/program\.main\[1\]\.if: condition "GV == 1" is always true here \(GV = 1\): its branch is always taken$/)]);
  });

  it("rejects a request listed twice in one wait, at its second place", () => {
    const e = errors({
      main: [
        { isend: "S", to: "1 - pid", size: 8, request: "r1" },
        { irecv: "R", from: "1 - pid", size: 8, request: "r2" },
        { wait: "W", requests: ["r1", "r2", "r1"] },
      ],
    });
    expect(e).toMatch(/program\.main\[2\]\.requests\[2\]: request 'r1' is listed twice in wait 'W' \(also at requests\[0\]\): list each request once$/);
  });

  it("says that a loop variable named pid or a workload value is read-only, as an assignment does", () => {
    const loop = (v: string) => ({ globals: { d: "double" }, main: [{ for: v, count: 2, do: [{ action: "A", cost: 1 }] }] });
    expect(errors(loop("pid"))).toMatch(/program\.main\[0\]\.for: loop variable 'pid' is a read-only process variable: declare an int in globals or the diagram's locals$/);
    expect(errors(loop("N"), { workload: { N: 4 } })).toMatch(/loop variable 'N' is a read-only workload value: declare an int/);
    expect(errors(loop("d"))).toMatch(/loop variable 'd' must be an int variable, not double$/);
  });

  it("rejects a condition repeated in one if/elif chain", () => {
    const e = errors({ globals: { g: "int" }, main: [{ if: "g == 1", then: [{ action: "A", cost: 1 }], elif: [{ if: "g==1", then: [{ action: "B", cost: 1 }] }] }] });
    expect(e).toMatch(/program\.main\[0\]\.elif\[0\]\.if: condition "g==1" repeats an earlier condition/);
  });

  it("rejects a collective inside a branch that depends on pid, directly or through a variable", () => {
    expect(errors({ main: [{ if: "pid == 0", then: [{ barrier: "B" }] }] })).toMatch(/collective barrier 'B' is inside a branch whose condition "pid == 0" depends on 'pid'/);
    const viaVariable = errors({
      globals: { leader: "bool" },
      activities: { Sum: [{ allreduce: "R", size: 8 }] },
      main: [{ code: "leader = pid < np / 2" }, { if: "leader", then: [{ activity: "Sum" }] }],
    });
    expect(viaVariable).toMatch(/collective allreduce 'R' is inside a branch whose condition "leader" depends on 'leader'/);
    // A variable an activity sets, the activity called on some processes only (through another activity too).
    const viaActivity = (calls: unknown[]) =>
      errors({
        globals: { flag: "int" },
        activities: { SetFlag: [{ code: "flag = 1" }], Outer: [{ activity: "SetFlag" }] },
        main: [{ if: "pid == 0", then: calls }, { if: "flag == 1", then: [{ barrier: "B" }] }],
      });
    expect(viaActivity([{ activity: "SetFlag" }])).toMatch(/collective barrier 'B' is inside a branch whose condition "flag == 1" depends on 'flag'/);
    expect(viaActivity([{ activity: "Outer" }])).toMatch(/collective barrier 'B' is inside a branch whose condition "flag == 1" depends on 'flag'/);
    // Called on every process, the activity's assignment is the same everywhere.
    expect(load({ globals: { flag: "int" }, activities: { SetFlag: [{ code: "flag = 1" }] }, main: [{ if: "np > 1", then: [{ activity: "SetFlag" }] }, { if: "flag == 1", then: [{ barrier: "B" }] }] }).program).toBeDefined();
    expect(errors({ main: [{ bcast: "B", size: 8, root: "pid" }] })).toMatch(/root of bcast 'B' depends on 'pid'/);
    // A branch on np is the same on every process: fine.
    expect(load({ main: [{ if: "np > 1", then: [{ barrier: "B" }] }] }).program).toBeDefined();
  });

  it("accepts branches on pid that make the same collectives in the same order, with the same roots; not others", () => {
    const branches = (then: unknown[], otherwise: unknown[]) => ({ main: [{ if: "pid == 0", then, else: otherwise }] });
    // The root works, then broadcasts; the others wait in their own bcast.
    expect(load(branches([{ action: "RootWork", cost: 100 }, { bcast: "FromRoot", size: 8, root: 0 }], [{ bcast: "ToWorkers", size: 8, root: 0 }])).program).toBeDefined();
    expect(errors(branches([{ bcast: "A", size: 8, root: 0 }], [{ allreduce: "B", size: 8 }]))).toMatch(/collective bcast 'A' is inside a branch whose condition "pid == 0"/);
    expect(errors(branches([{ bcast: "A", size: 8, root: 0 }], [{ bcast: "B", size: 8, root: 1 }]))).toMatch(/collective bcast 'A' is inside a branch/);
    expect(errors(branches([{ barrier: "A" }, { barrier: "A2" }], [{ barrier: "B" }]))).toMatch(/collective barrier 'A' is inside a branch/);
    expect(errors({ main: [{ if: "pid == 0", then: [{ barrier: "A" }] }] })).toMatch(/collective barrier 'A' is inside a branch/);
  });

  it("says in words what a name of a variable, function or activity may be", () => {
    const e = errors({ globals: { "n-iter": "int" }, functions: { "F-1": 3, "G(a, b)": "a + b" }, activities: { "my act": [] }, main: [{ action: "A", cost: 1 }] });
    expect(e).toContain("program.globals.n-iter: key 'n-iter' is not a name: letters, digits and _, starting with a letter or _");
    expect(e).toContain("program.functions.F-1: key 'F-1' is not a function name (letters, digits and _, starting with a letter or _), with its parameters' names in parentheses if it takes any: F or F(a, b)");
    expect(e).toContain(`program.activities["my act"]: key 'my act' is not a name`);
    expect(e).not.toContain("G(a, b)");
  });

  it("rejects a send whose destination is outside the processes", () => {
    const e = errors({ main: [{ send: "S", to: "pid + np", size: 4 }] });
    expect(e).toMatch(/send 'S': destination "pid \+ np" is 2 on process 0, outside \[0, 2\)/);
    // A fractional one is named as such, not as outside a range it lies in.
    expect(errors({ main: [{ bcast: "B", size: 8, root: "np / 4" }] })).toMatch(/bcast 'B': root "np \/ 4" is 0.5 on process 0, not an integer process id \(0 to 1\)/);
    // Guarded as in paper 003 Fig. 5.4: accepted.
    expect(
      load({
        main: [
          { if: "pid != 0", then: [{ recv: "R", from: "pid - 1", size: 4 }] },
          { if: "pid != np - 1", then: [{ send: "S", to: "pid + 1", size: 4 }] },
        ],
      }, { nodes: 4 }).program,
    ).toBeDefined();
  });

  it("rejects point-to-point elements no process could match", () => {
    const e = errors({ main: [{ if: "pid == 0", then: [{ send: "S", to: 1, size: 4, tag: 7 }] }, { if: "pid == 1", then: [{ recv: "R", from: 0, tag: 8 }] }] });
    expect(e).toMatch(/send 'S' from process 0 to 1 \(tag 7\): process 1 has no receive that could match it/);
    expect(e).toMatch(/receive 'R' on process 1 from 0 \(tag 8\): process 0 has no send that could match it/);
  });

  it("rejects a send or receive only threads other than 0 reach: MPI is funnelled through thread 0, and the message would never move", () => {
    const pair = [{ if: "pid == 0", then: [{ send: "S", to: 1, size: 4 }], else: [{ recv: "R", from: 0, size: 4 }] }];
    const e = errors({ threads: 2, main: [{ if: "tid == 1", then: pair }] });
    expect(e).toMatch(/model\.yaml:\d+:\d+: program\.main\[0\]\.then\[0\]\.then\[0\]: send 'S' is reached by thread 1 of process 0 but by thread 0 of no process; MPI is funnelled through thread 0 .* so it would never send/);
    expect(e).toMatch(/program\.main\[0\]\.then\[0\]\.else\[0\]: recv 'R' is reached by thread 1 of process 1 but by thread 0 of no process; .* so it would never receive/);
    // Through uid too; and thread 0 reaching it, alone or with the others, is the funnelled model.
    expect(errors({ threads: 2, main: [{ if: "uid == 1", then: [{ isend: "S", to: 1, size: 4, request: "q" }, { wait: "W", requests: ["q"] }] }, { if: "pid == 1", then: [{ recv: "R", from: 0, size: 4 }] }] })).toMatch(/isend 'S' is reached by thread 1 of process 0 but by thread 0 of no process/);
    expect(() => load({ threads: 2, main: [{ if: "tid == 0", then: pair }] })).not.toThrow();
    expect(() => load({ threads: 2, main: pair })).not.toThrow();
    // Judged per element: an activity called under tid == 1 and, in the other arm, by thread 0.
    expect(() => load({ threads: 2, activities: { X: pair }, main: [{ if: "tid == 1", then: [{ activity: "X" }], else: [{ activity: "X" }] }] })).not.toThrow();
    // Reached twice by other threads only: reported once per element.
    const twice = errors({ threads: 2, activities: { X: pair }, main: [{ if: "tid == 1", then: [{ activity: "X" }, { activity: "X" }] }] });
    expect(twice.match(/send 'S' is reached by thread 1/g)).toHaveLength(1);
  });

  it("rejects unknown activities, duplicate element names and waits on unknown requests", () => {
    expect(errors({ activities: { Solve: [{ action: "A", cost: 1 }] }, main: [{ activity: "Solv" }] })).toMatch(/unknown activity 'Solv' \(did you mean 'Solve'\?\)/);
    expect(errors({ main: [{ action: "X", cost: 1 }, { action: "X", cost: 2 }] })).toMatch(/element name 'X' is already used/);
    expect(errors({ main: [{ wait: "W", requests: ["r"] }] })).toMatch(/request 'r' is never started/);
  });

  it("rejects cost functions that call each other in a cycle or with the wrong arity", () => {
    expect(errors({ functions: { F: "G + 1", G: "F * 2" }, main: [{ action: "A", cost: "F" }] })).toMatch(/cost function cycle: F -> G -> F/);
    expect(errors({ functions: { "F(a, b)": "a + b" }, main: [{ action: "A", cost: "F(1)" }] })).toMatch(/'F\(a, b\)' takes 2 arguments, got 1/);
  });

  it("rejects more processes x threads per node than processors", () => {
    expect(errors({ threads: 2, main: [{ action: "A", cost: 1 }] }, { ppn: 4 })).toMatch(/4 processes x 2 threads per node exceed the node's 4 processors/);
  });

  it("requires exactly one of assembly and program", () => {
    const text = JSON.stringify({ name: "t", machine: { preset: "pentium3-xeon-700" } });
    expect(errorsOf(() => loadScenarioText(text, "m.yaml")).join("\n")).toMatch(/needs an `assembly` or a `program` section/);
  });
});
