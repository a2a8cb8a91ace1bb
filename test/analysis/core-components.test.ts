import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  AnalysisInputError,
  componentCallTree,
  componentOfTimer,
  coreComponentsFromTimers,
  coreComponentsOfTrial,
  coreTimersOfTrial,
  implementationNames,
  knownModelsAssembly,
  readAssemblyFile,
  unmatchedComponentTimers,
  type CallNode,
} from "../../analysis/index.js";
import { readTrial } from "../../profile/index.js";
import { executeScenario, loadScenario } from "../../scenarios/index.js";

const KNOWN = knownModelsAssembly().components.map((c) => c.name);

describe("componentOfTimer", () => {
  it("maps 'A::run()', 'A::anything' and exactly 'A' to component A, and other timers to none", () => {
    expect(componentOfTimer("A::run()", KNOWN)).toBe("A");
    expect(componentOfTimer("A::setup", KNOWN)).toBe("A");
    expect(componentOfTimer("A", KNOWN)).toBe("A");
    expect(componentOfTimer("Driver::go()", KNOWN)).toBe("Driver");
    for (const t of [".TAU application", "MPI_Init()", "AB::run()", "A:run()", "a::run()", "int main(int, char **) C", "B A::run()"]) expect(componentOfTimer(t, KNOWN), t).toBeUndefined();
  });

  it("prefers the longest component name that matches", () => {
    expect(componentOfTimer("Solver::Inner::run()", ["Solver", "Solver::Inner"])).toBe("Solver::Inner");
    expect(componentOfTimer("Solver::run()", ["Solver", "Solver::Inner"])).toBe("Solver");
  });

  it("maps the simulator's timer of every method of an instance to the instance", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 6 }), fc.nat(), name, (components, pick, method) => {
        const c = components[pick % components.length]!;
        // components/runtime.ts names a method's timer `${instance}::${method}()`.
        expect(componentOfTimer(`${c}::${method}()`, components)).toBe(c);
        expect(componentOfTimer(`MPI_${c}()`, components)).toBe(components.includes(`MPI_${c}()`) ? `MPI_${c}()` : undefined);
      }),
      { seed: 11, numRuns: 200 },
    );
  });
});

describe("coreComponentsFromTimers", () => {
  it("gives the components of the core timers, in the assembly's order", () => {
    expect(coreComponentsFromTimers([".TAU application", "Driver::go()", "B::run()", "A::run()", "MPI_Send()"], KNOWN)).toEqual(["Driver", "A", "B"]);
  });

  it("refuses core timers that name no component, quoting a few of them and the components", () => {
    const timers = [".TAU application", "main", "MPI_Init()", "MPI_Finalize()", "MPI_Send()", "MPI_Recv()", "compute()", "MPI_Barrier()"];
    const fail = (): unknown => coreComponentsFromTimers(timers, KNOWN, "cpi");
    expect(fail).toThrow(AnalysisInputError);
    expect(fail).toThrow(
      "cpi: no core timer names a component of the assembly (a timer 'A::run()', 'A::<anything>' or 'A' belongs to component A, or to the component of which A is an implementation): " +
        "core timers '.TAU application', 'main', 'MPI_Init()', 'MPI_Finalize()', 'MPI_Send()', 'MPI_Recv()' and 2 more; components Driver, A, B, C, D",
    );
  });
});

describe("unmatchedComponentTimers", () => {
  it("lists the core timers of component methods that belong to no component of the assembly", () => {
    expect(unmatchedComponentTimers([".TAU application", "Driver::go()", "Solver::run()", "MPI_Send()", "void A::f(int) C"], KNOWN)).toEqual(["Solver::run()", "void A::f(int) C"]);
    expect(unmatchedComponentTimers([".TAU application", "Driver::go()", "A::run()"], KNOWN)).toEqual([]);
  });
});

describe("timers of an implementation", () => {
  it("count for the component it implements, the longest matching name deciding", () => {
    const impls = { Flux: ["EFMFlux", "GodunovFlux"], Mesh: ["AMRMesh"] };
    expect(componentOfTimer("EFMFlux::compute()", ["Flux", "Mesh"], impls)).toBe("Flux");
    expect(componentOfTimer("AMRMesh::ghostUpdate()", ["Flux", "Mesh"], impls)).toBe("Mesh");
    expect(componentOfTimer("EFMFlux::compute()", ["Flux", "Mesh"])).toBeUndefined();
    // A component named like a longer implementation name wins over a shorter one.
    expect(componentOfTimer("EFMFlux::compute()", ["EFM", "Flux"], { EFM: [], Flux: ["EFMFlux"] })).toBe("Flux");
    expect(componentOfTimer("EFM::compute()", ["EFM", "Flux"], { Flux: ["EFMFlux"] })).toBe("EFM");
    expect(coreComponentsFromTimers([".TAU application", "EFMFlux::compute()"], ["Flux"], "run", impls)).toEqual(["Flux"]);
    expect(unmatchedComponentTimers(["EFMFlux::compute()", "RK2::advance()"], ["Flux"], impls)).toEqual(["RK2::advance()"]);
  });

  it("make the shock run's pruned core the flux assembly's Flux", () => {
    const trial = executeScenario(loadScenario("scenarios/shock-neuronic.yaml")).trial!;
    const assembly = readAssemblyFile("scenarios/flux.assembly.yaml");
    expect(coreComponentsOfTrial(trial, ["Flux"], { implementations: implementationNames(assembly) })).toEqual(["Flux"]);
    expect(() => coreComponentsOfTrial(trial, ["Flux"])).toThrow(/no core timer names a component of the assembly/);
  });
});

describe("coreComponentsOfTrial", () => {
  it("finds paper 002's core (Driver, A, B) in a simulated run of the known-models assembly", () => {
    const art = executeScenario(loadScenario("scenarios/known-models.yaml", { set: ["workload.iterations=10"] }));
    expect(coreComponentsOfTrial(art.trial!, KNOWN)).toEqual(["Driver", "A", "B"]);
    // With beta = 0 nothing is pruned by comparison with siblings: C and D join the core.
    expect(coreComponentsOfTrial(art.trial!, KNOWN, { alpha: 0, beta: 0 })).toEqual(KNOWN);
  });

  it("judges a component by the time of all its methods together, as paper 002 defines a component's inclusive time", () => {
    // Driver::go() calls Solver::solve() (9400 us) and ten methods of Mesh (60 us each, 600 in all).
    // Each method alone is 0.066 of its siblings' mean and would be pruned by beta = 0.1; Mesh, the
    // cumulative time of its methods, is 0.12 of the mean of Solver and Mesh, and stays in the core.
    const trial = readTrial("test/analysis/golden/paper002-component-methods", { records: false });
    const components = ["Driver", "Solver", "Mesh"];
    expect(coreComponentsOfTrial(trial, components)).toEqual(["Driver", "Solver", "Mesh"]);
    expect(coreTimersOfTrial(trial, { components })).toEqual(["Driver", "Solver", "Mesh"]);
    // Without the components, the timers are judged one by one, as ccasim prune judges them.
    expect(coreTimersOfTrial(trial)).toEqual(["Driver::go()", "Solver::solve()"]);
    // A beta above the component's share prunes it whole.
    expect(coreComponentsOfTrial(trial, components, { beta: 0.13 })).toEqual(["Driver", "Solver"]);
  });

  it("joins a component's timers under one caller without changing any caller's total", () => {
    const names = ["A::f()", "A::g()", "B::run()", "MPI_Send()"];
    const tree: fc.Memo<CallNode> = fc.memo((depth) =>
      fc
        .tuple(fc.constantFrom(...names), fc.integer({ min: 0, max: 100 }), depth <= 1 ? fc.constant<CallNode[]>([]) : fc.array(tree(depth - 1), { maxLength: 4 }))
        .map(([name, own, kids]) => ({ name, inclusive: own + kids.reduce((s, c) => s + c.inclusive, 0), exclusive: own, children: kids })),
    );
    const total = (n: CallNode): number => n.children.reduce((s, c) => s + c.inclusive, 0);
    fc.assert(
      fc.property(tree(4), (root) => {
        const joined = componentCallTree(root, ["A", "B"]);
        expect(joined.inclusive).toBe(root.inclusive);
        const check = (n: CallNode): void => {
          expect(new Set(n.children.map((c) => c.name)).size).toBe(n.children.length);
          expect(n.inclusive - n.exclusive).toBe(total(n));
          for (const c of n.children) {
            expect(["A", "B", "MPI_Send()"]).toContain(c.name);
            check(c);
          }
        };
        check(joined);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it("refuses a real trial of another application (the Hatchet cpi profile)", () => {
    const trial = readTrial("../shared/data/tau/hatchet-cpi-mpi", { records: false });
    expect(() => coreComponentsOfTrial(trial, KNOWN)).toThrow(/no core timer names a component of the assembly .*core timers 'MPI_Init\(\)', 'MPI_Finalize\(\)'/);
  });
});
