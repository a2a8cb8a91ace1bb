import { describe, expect, it } from "vitest";
import { executeScenario, loadScenarioText } from "../../../scenarios/index.js";
import { errorsOf, programScenario, runText } from "./helpers.js";

const text = (program: unknown, workload: Record<string, number> = { N: 100 }) => programScenario(program, { workload });
const errors = (program: unknown, set: string[] = [], workload?: Record<string, number>) => errorsOf(() => loadScenarioText(text(program, workload), "model.yaml", { set })).join("\n");
const warningsOfRun = (program: unknown) => executeScenario(loadScenarioText(text(program), "model.yaml"), { measure: false }).result.warnings;

describe("values a program model fixes at load", () => {
  it("refuses a constant negative cost at its key, from the file or from --set", () => {
    expect(errors({ main: [{ action: "A", cost: -5 }] })).toMatch(/model\.yaml:\d+:\d+: program\.main\[0\]\.cost: the cost is -5: a cost must be a finite number >= 0$/);
    expect(errors({ main: [{ action: "A", cost: "N - 200" }] })).toMatch(/program\.main\[0\]\.cost: the cost "N - 200" is -100 \(with the workload's N\): a cost must be/);
    expect(errors({ main: [{ action: "A", cost: "N - 200" }] }, ["workload.N=50"])).toMatch(/the cost "N - 200" is -150 \(with the workload's N\): .*\(overridden: --set workload\.N=50\)$/);
    expect(errors({ main: [{ action: "A", cost: 1 }] }, ["program.main[0].cost=-1"])).toMatch(/program\.main\[0\]\.cost: the cost is -1: .*\(from --set program\.main\[0\]\.cost=-1\)/);
  });

  it("leaves a cost that depends on the process to the run", () => {
    expect(() => loadScenarioText(text({ main: [{ action: "A", cost: "50 - 100 * pid" }] }), "model.yaml")).not.toThrow();
  });

  it("refuses a for loop with a zero step and a non-integer literal count, and truncates one computed from the workload", () => {
    const e = errors({
      globals: { i: "int" },
      main: [
        { for: "i", from: 0, to: 10, step: 0, do: [{ action: "A", cost: 1 }] },
        { for: "i", count: 2.5, do: [{ action: "B", cost: 1 }] },
        { for: "i", from: 0, to: "N / 3", do: [{ action: "C", cost: 1 }] },
      ],
    });
    expect(e).toMatch(/program\.main\[0\]\.step: the step is 0: the step of a for loop must not be 0/);
    expect(e).toMatch(/program\.main\[1\]\.count: the count is 2\.5: a for loop runs a whole number of iterations \(C would truncate 2\.5 to 2\)/);
    // A fraction computed from the workload is truncated, as C's integer arithmetic does.
    expect(e).not.toMatch(/program\.main\[2\]/);
  });

  it("refuses a negative loop count: written as a number at load, computed in the run (where its branch is taken)", () => {
    const loop = (count: unknown) => ({ globals: { i: "int" }, main: [{ for: "i", count, do: [{ action: "A", cost: 1 }] }] });
    expect(errors(loop(-3))).toMatch(/program\.main\[0\]\.count: the count is -3: a loop count is a number of iterations, 0 or more \(for a loop that may run no iteration, give from and to\)/);
    const run = (program: unknown) => () => executeScenario(loadScenarioText(text(program), "model.yaml"), { measure: false });
    expect(run(loop("5 - N"))).toThrow(/program\.main\[0\]: the loop count evaluated to -95; a count is a number of iterations, 0 or more/);
    expect(run(loop("2 - 3 * pid"))).toThrow(/the loop count evaluated to -1; a count is a number of iterations, 0 or more/);
    // C truncates a computed -0.5 to 0 iterations; a branch the workload never takes is never checked.
    expect(run(loop("N / 200 - 1"))).not.toThrow();
    expect(run({ globals: { i: "int" }, main: [{ if: "N > 500", then: [{ for: "i", count: "5 - N", do: [{ action: "A", cost: 1 }] }] }] })).not.toThrow();
  });

  it("refuses a while loop's bound written negative or as a fraction, at its key, and truncates one computed from the workload", () => {
    const loop = (bound: unknown) => ({ globals: { x: "int" }, main: [{ while: "x < 2", bound, do: [{ code: "x = x + 1" }] }] });
    expect(errors(loop(-1))).toMatch(/program\.main\[0\]\.bound: the bound is -1: a while loop's bound is a number of iterations, 0 or more$/);
    expect(errors(loop(2.5))).toMatch(/program\.main\[0\]\.bound: the bound is 2\.5: a while loop's bound is a whole number of iterations \(C would truncate 2\.5 to 2\): write an integer$/);
    expect(() => loadScenarioText(text(loop("N / 3")), "model.yaml")).not.toThrow();
    expect(() => loadScenarioText(text(loop(0)), "model.yaml")).not.toThrow();
  });

  it("refuses a while loop's bound computed negative in the run, as a count, with either evaluator", () => {
    const loop = { globals: { x: "int" }, main: [{ while: "x < 2", bound: "3 - 4 * (pid + 1)", do: [{ code: "x = x + 1" }] }] };
    for (const evaluator of ["compiled", "interpreter"] as const) {
      expect(() => runText(text(loop), evaluator)).toThrow(/program\.main\[0\]: the while loop's bound evaluated to -1; a bound is a number of iterations, 0 or more$/);
    }
  });

  it("refuses a step computed to 0 in the run, where its loop is reached, not at load", () => {
    const loop = (step: string, guard = "N > 0") => ({ globals: { i: "int" }, main: [{ if: guard, then: [{ for: "i", from: 0, to: 10, step, do: [{ action: "A", cost: 1 }] }] }] });
    expect(() => loadScenarioText(text(loop("N / 400")), "model.yaml")).not.toThrow();
    const run = (program: unknown) => () => executeScenario(loadScenarioText(text(program), "model.yaml"), { measure: false });
    expect(run(loop("N / 400"))).toThrow(/program\.main\[0\]\.then\[0\]: the loop step evaluated to 0\.25, which truncates to 0; the step of a for loop must not be 0/);
    expect(run(loop("N - 100"))).toThrow(/the loop step evaluated to 0; the step of a for loop must not be 0/);
    // Under a branch the workload never takes, it is never checked.
    expect(run(loop("N / 400", "N > 500"))).not.toThrow();
  });

  it("refuses a fractional message size: written as a number at load, computed in the run", () => {
    expect(errors({ main: [{ allreduce: "A", size: 2.5 }] })).toMatch(/program\.main\[0\]\.size: the message size is 2\.5: a message is a whole number of bytes: write 3/);
    expect(() => executeScenario(loadScenarioText(text({ main: [{ allreduce: "A", size: "N / 3" }] }), "model.yaml"), { measure: false })).toThrow(
      /program\.main\[0\]: process \d, the message size evaluated to 33\.33+\d*: a message is a whole number of bytes/,
    );
  });

  it("names the irecv a message is too large for, not the call its process made after it", () => {
    const program = {
      main: [
        {
          if: "pid == 1",
          then: [
            { irecv: "SmallRecv", from: 0, size: 10, request: "r" },
            { isend: "Other", to: 0, size: 4, tag: 7, request: "o" },
            { action: "Work", cost: 5000 },
            { wait: "WaitR", requests: ["r", "o"] },
          ],
        },
        { if: "pid == 0", then: [{ send: "BigSend", to: 1, size: 1000 }, { recv: "OtherIn", from: 1, size: 4, tag: 7 }] },
      ],
    };
    expect(() => executeScenario(loadScenarioText(text(program), "model.yaml"), { measure: false })).toThrow(/program\.main\[0\]\.then\[0\]: process 1, receive: message truncated/);
  });

  it("refuses a collective whose size differs between processes, naming the element, both processes and sizes", () => {
    const run = (size: string) => executeScenario(loadScenarioText(text({ main: [{ allreduce: "A", size }] }), "model.yaml"), { measure: false });
    expect(() => run("8 * (pid + 1)")).toThrow(/program\.main\[0\]: process 1 gives its allreduce 'A' 16 bytes, process 0 gave the same collective 8: every process gives a collective the same size/);
    // The same size computed differently on each process is fine.
    expect(() => run("pid == 0 ? 8 : 4 + 4")).not.toThrow();
    // Branches that make the same collective name the other process's element.
    const branches = { main: [{ if: "pid == 0", then: [{ allreduce: "Root", size: 8 }], else: [{ allreduce: "Others", size: 16 }] }] };
    expect(() => executeScenario(loadScenarioText(text(branches), "model.yaml"), { measure: false })).toThrow(
      /process 1 gives its allreduce 'Others' 16 bytes, process 0 gave the same collective at its allreduce 'Root' \(model\.yaml:\d+:\d+\) 8/,
    );
  });

  it("names the element of a receive too small for the message it matches", () => {
    const program = {
      main: [
        { if: "pid == 0", then: [{ send: "S", to: 1, size: 1000 }] },
        { if: "pid == 1", then: [{ recv: "R", from: 0, size: 10 }] },
      ],
    };
    expect(() => executeScenario(loadScenarioText(text(program), "model.yaml"), { measure: false })).toThrow(
      /model\.yaml:\d+:\d+: program\.main\[1\]\.then\[0\]: process 1, receive: message truncated: 1000 bytes from rank 0 tag 0 into a 10-byte receive/,
    );
  });

  it("refuses a string assigned in a code fragment, and a negative constant size or tag", () => {
    const e = errors({
      globals: { s: "int" },
      main: [{ action: "A", code: 's = "abc"', cost: 1 }, { send: "S", to: "1 - pid", size: -8, tag: 1.5 }, { recv: "R", from: "1 - pid", tag: 1 }],
    });
    expect(e).toMatch(/program\.main\[0\]\.code: evaluates to "abc" \(not a finite number\) in expression "s = \\"abc\\""/);
    expect(e).toMatch(/program\.main\[1\]\.size: the message size is -8: a message size must be a number of bytes >= 0/);
    expect(e).toMatch(/program\.main\[1\]\.tag: the tag is 1\.5: a tag must be an integer >= 0/);
  });

  it("refuses an int variable declared with a fractional initial value, at its init", () => {
    const e = errors({ globals: { c: { type: "int", init: 2.5 }, ok: { type: "int", init: true } }, activities: { Act: { locals: { l: { type: "int", init: 0.5 } }, do: [{ action: "B", cost: "l" }] } }, main: [{ action: "A", cost: "c + ok" }, { activity: "Act" }] });
    expect(e).toMatch(/program\.globals\.c\.init: int 'c' cannot start at 2\.5: give an integer \(C would truncate it to 2\), or declare 'c' a double/);
    expect(e).toMatch(/program\.activities\.Act\.locals\.l\.init: int 'l' cannot start at 0\.5/);
    expect(e).not.toMatch(/'ok'/);
  });
});

describe("messages of program model errors", () => {
  it("reports a cost function cycle once, at the first function of the cycle", () => {
    const e = errorsOf(() => loadScenarioText(text({ functions: { F: "G + 1", G: "H * 2", H: "F - 1" }, main: [{ action: "A", cost: "F" }] }), "model.yaml"));
    expect(e).toEqual([expect.stringMatching(/program\.functions\.F: cost function cycle: F -> G -> H -> F$/)]);
  });

  it("reports a syntax error in a cost function once, at its key, and not again at its uses", () => {
    const e = errorsOf(() => loadScenarioText(text({ functions: { "F(n)": "2 *", G: 3 }, main: [{ action: "A", cost: "F(N) + G" }] }), "model.yaml"));
    expect(e).toEqual([expect.stringMatching(/program\.functions\["F\(n\)"\]: F\(n\): syntax error: Unexpected end of expression \(char 4\)$/)]);
  });

  it("reports an unknown name in a cost function's body once, at its key: not at the functions calling it, nor at their uses, where the other mistakes are still found", () => {
    const e = errorsOf(() =>
      loadScenarioText(
        text({
          functions: { "F(n)": "2 * n + q", G: "F(3) + 1", "H(m)": "G * m" },
          main: [{ action: "A", cost: "F(N)" }, { action: "B", cost: "H(2) + zz" }, { action: "C", cost: "F(1) + G" }],
        }),
        "model.yaml",
      ),
    );
    expect(e).toEqual([
      expect.stringMatching(/program\.functions\["F\(n\)"\]: F\(n\): unknown symbol 'q'; known: /),
      expect.stringMatching(/program\.main\[1\]\.cost: unknown symbol 'zz'; .* in expression "H\(2\) \+ zz"$/),
    ]);
  });

  it("reports a call with the wrong number of arguments in a cost function's body once, at its key, not at the functions calling it, whose own mistakes are still found", () => {
    const e = errorsOf(() =>
      loadScenarioText(text({ functions: { "H(a)": "a", G: "H(1, 2)", "F(n)": "G + n", "K(m)": "F(m) + zz" }, main: [{ action: "A", cost: "F(N)" }, { action: "B", cost: "K(2)" }] }), "model.yaml"),
    );
    // F fails only through G; K, calling F, has a mistake of its own.
    expect(e).toEqual([
      expect.stringMatching(/program\.functions\.G: G: cost function 'H\(a\)' takes 1 argument, got 2$/),
      expect.stringMatching(/program\.functions\["K\(m\)"\]: K\(m\): unknown symbol 'zz'; known: /),
    ]);
  });

  it("says that a unit in an expression is a unit, not a misspelt variable", () => {
    const e = errors({ main: [{ send: "S", to: "1 - pid", size: "8KiB" }, { recv: "R", from: "1 - pid" }, { action: "A", cost: "5 us" }] });
    expect(e).toMatch(/program\.main\[0\]\.size: 'KiB' is a unit, but expressions are plain numbers \(in expression "8KiB"\): write the size as a number of bytes \(8KiB is 8192\)/);
    expect(e).toMatch(/program\.main\[2\]\.cost: 'us' is a unit, .*give the element 'unit: us'/);
    expect(e).not.toMatch(/did you mean/);
  });

  it("refuses a local named as a cost function, as a global of that name is refused: the function would be read in its place", () => {
    const e = errors({
      functions: { Work: 100 },
      activities: { Sub: { locals: { Work: "int" }, do: [{ action: "A", code: "Work = 3", cost: "Work" }] } },
      main: [{ activity: "Sub" }],
    });
    expect(e).toMatch(/model\.yaml:\d+:\d+: program\.activities\.Sub\.locals\.Work: local 'Work' has the name of a cost function: an expression naming 'Work' would call the function, not read the local; choose another name$/m);
    expect(errors({ functions: { Work: 100 }, globals: { Work: "int" }, main: [{ action: "A", cost: "Work" }] })).toMatch(/program\.functions\.Work: 'Work' is already a variable or built-in function: choose another name/);
  });

  it("says how C's &&, || and ! are written when a condition or cost function uses them (paper 003's models are C++)", () => {
    const hint = "(C's &&, || and ! are written and, or, not in an expression)";
    const lineOf = (text: string, key: string) => text.split("\n").find((l) => l.includes(`${key}: syntax error: `)) ?? "";
    const e = errors({ main: [{ if: "np > 1 && pid != 0", then: [{ action: "A", cost: 1 }] }, { if: "!(pid == 0) || np == 1", then: [{ action: "B", cost: 1 }] }] });
    expect(lineOf(e, "program.main[0].if")).toContain(`syntax error: Value expected (char 9) ${hint} in expression`);
    expect(lineOf(e, "program.main[1].if")).toContain(hint);
    // In a function body, and in a code fragment read through the inliner (the model has cost functions).
    const f = errors({ globals: { b: "bool" }, functions: { "F(n)": "n > 1 && n < 5 ? 2 : 1", G: 3 }, main: [{ action: "A", code: "b = G > 1 || pid == 0", cost: "G + F(2)" }] });
    expect(lineOf(f, 'program.functions["F(n)"]: F(n)')).toContain(hint);
    expect(lineOf(f, "program.main[0].code")).toContain(hint);
    // Not for a syntax error of another kind.
    const other = errors({ main: [{ action: "A", cost: "1 +" }] });
    expect(lineOf(other, "program.main[0].cost")).not.toBe("");
    expect(other).not.toContain(hint);
  });

  it("suggests only assignable variables for an assignment to an undeclared one", () => {
    expect(errors({ globals: { yy: "int" }, main: [{ code: "y = 1" }] })).toMatch(/assignment to undeclared variable 'y' \(did you mean 'yy'\?\)/);
    expect(errors({ globals: { count: "int" }, main: [{ code: "y = 1" }] })).not.toMatch(/did you mean 'N'/);
  });

  it("says 'process' for an MPI argument out of range and names an overridden cost function", () => {
    const sc = loadScenarioText(text({ globals: { q: "int" }, functions: { Peer: "q + 1" }, main: [{ code: "q = pid" }, { if: "pid == 0", then: [{ irecv: "R", from: "Peer", request: "r" }, { wait: "W", requests: ["r"] }] }] }), "model.yaml", {
      set: ["program.functions.Peer=q + 2"],
    });
    expect(() => executeScenario(sc, { measure: false })).toThrow(/program\.main\[1\]\.then\[0\]: process 0, MPI_Irecv\(\): source 2 is outside \[0, 2\).*\(overridden: --set program\.functions\.Peer=q \+ 2\)/);
  });
});

describe("overrides of cost functions", () => {
  const program = { functions: { "Stencil(a, b)": "0.01 * a * b", Pack: 3 }, main: [{ action: "A", cost: "Stencil(N, N) + Pack" }] };

  it("refuses one that names no function of the model, with the nearest name", () => {
    const e = errorsOf(() => loadScenarioText(text(program), "model.yaml", { set: ["program.functions.Stencl=1"] }));
    // The nearest and the defined ones as keys an override writes: Stencil(a, b), not Stencil.
    expect(e).toEqual([expect.stringMatching(/program\.functions\.Stencl: 'Stencl' is not a cost function of the program \(did you mean 'Stencil\(a, b\)'\?\): an override changes a function, it does not add one \(defined, as keys: Stencil\(a, b\), Pack\) \(from --set program\.functions\.Stencl=1\)$/)]);
  });

  it("refuses one under another key than the function's, once", () => {
    const e = errorsOf(() => loadScenarioText(text(program), "model.yaml", { set: ["program.functions.Stencil=1"] }));
    expect(e).toEqual([expect.stringMatching(/cost function 'Stencil' is defined as 'Stencil\(a, b\)': set program\.functions\.Stencil\(a, b\)/)]);
  });

  it("changes a defined function, and functions a replaced section defines", () => {
    const sc = loadScenarioText(text(program), "model.yaml", { set: ["program.functions.Stencil(a, b)=0.02 * a * b", "program.functions.Pack=4"] });
    expect(sc.program).toBeDefined();
    expect(() => loadScenarioText(text(program), "model.yaml", { set: ['program.functions={"Stencil(a, b)": a, Pack: 1, Extra: 2}', "program.functions.Extra=3", "program.main[1]={action: B, cost: Extra}"] })).not.toThrow();
  });

  it("warns about a cost function nothing uses", () => {
    const sc = loadScenarioText(text({ functions: { Used: 2, Helper: 3, Unused: "Helper * 2" }, main: [{ action: "A", cost: "Used" }] }), "model.yaml");
    expect(sc.program!.warnings).toEqual([expect.stringMatching(/program\.functions\.Helper: cost function 'Helper' is never used$/), expect.stringMatching(/program\.functions\.Unused: cost function 'Unused' is never used$/)]);
  });
});

describe("warnings about requests after a run", () => {
  it("warns at the element about requests never waited for, and about a receive no message matched", () => {
    const w = warningsOfRun({
      main: [
        { isend: "S", to: "1 - pid", size: 8, tag: 3, request: "s" },
        { irecv: "R", from: "1 - pid", tag: 3, request: "r" },
        { irecv: "R2", from: "any", tag: 4, request: "r2" },
        { wait: "W", requests: ["r"] },
      ],
    });
    expect(w).toContainEqual(expect.stringMatching(/model\.yaml:\d+:\d+: program\.main\[0\]: request 's' of isend 'S' is never waited for on processes 0, 1 \(MPI would leave it pending/));
    expect(w).toContainEqual(expect.stringMatching(/program\.main\[2\]: request 'r2' of irecv 'R2' is never waited for on processes 0, 1; no message ever matched it/));
    expect(w.join("\n")).not.toMatch(/'R'/);
  });

  it("warns about a request started again in a loop before its wait", () => {
    const w = warningsOfRun({
      globals: { i: "int" },
      main: [{ for: "i", count: 3, do: [{ isend: "S", to: "1 - pid", size: 8, request: "s" }, { irecv: "R", from: "1 - pid", request: "r" }] }, { wait: "W", requests: ["s", "r"] }],
    });
    expect(w).toContainEqual(expect.stringMatching(/program\.main\[0\]\.do\[0\]: isend 'S' starts request 's' again on process 0 while the previous one is still pending \(no wait in between\)/));
    expect(w).toContainEqual(expect.stringMatching(/program\.main\[0\]\.do\[1\]: irecv 'R' starts request 'r' again/));
  });
});

describe("elements of two kinds", () => {
  it("says that an element names two kinds, not that one of its keys is unknown", () => {
    const e = errors({ main: [{ action: "A", send: "S", to: "1 - pid", size: 8, cost: 1 }, { recv: "R", from: "1 - pid" }] });
    expect(e).toMatch(/model\.yaml:\d+:\d+: program\.main\[0\]: an element has one kind, this one has 2: 'action', 'send' \(keep one, or split it into 2 elements\)/);
    expect(e).not.toMatch(/unknown key/);
  });
});

describe("errors of one load reported together", () => {
  it("reports misspelt units with the errors of the expressions they do not hide", () => {
    const e = errors({
      costUnit: "sec",
      main: [{ action: "A", cost: 5, unit: "msec" }, { action: "B", cost: "5ms" }, { send: "S", to: "1 - pid", size: "8KiB" }, { recv: "R", from: "1 - pid" }],
    });
    expect(e).toMatch(/program\.costUnit: .*sec/);
    expect(e).toMatch(/program\.main\[0\]\.unit: .*msec/);
    expect(e).toMatch(/program\.main\[1\]\.cost: 'ms' is a unit/);
    expect(e).toMatch(/program\.main\[2\]\.size: 'KiB' is a unit/);
    expect(e.split("\n")).toHaveLength(4);
  });

  it("reports only the schema's errors when others may depend on them", () => {
    const e = errors({ main: [{ action: "A", cost: "5ms", bogus: 1 }] });
    expect(e).toMatch(/unknown key 'bogus'/);
    expect(e).not.toMatch(/'ms' is a unit/);
  });

  it("reports a bad declaration of a global named unit or threads alone (they are not keys that pick a default)", () => {
    const e = errors({ globals: { unit: "strng" }, main: [{ action: "A", cost: "unit" }] });
    expect(e).toMatch(/program\.globals\.unit/);
    expect(e).not.toMatch(/unknown symbol 'unit'|undeclared/);
  });
});
