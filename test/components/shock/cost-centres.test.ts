import { beforeAll, describe, expect, it } from "vitest";
import type { Evidence } from "../../../scenarios/index.js";
import { runShock } from "./run-shock.js";

/** Paper 000 Table 1: where the time goes. */
describe("shock-neuronic profile: dominant cost centres", () => {
  let e: Evidence;
  let perRankStates: number;
  beforeAll(() => {
    const art = runShock();
    e = art.evidence!;
    perRankStates = art.result.mastermind!.records.filter((r) => r.component === "StatesConstructor").length / art.result.ranks;
  });

  it("puts the states and flux compute methods and MPI_Waitsome() on top", () => {
    const top3 = e.costCentres.slice(0, 3).map((c) => c.name).sort();
    expect(top3).toEqual(["EFMFlux::compute()", "MPI_Waitsome()", "StatesConstructor::compute()"]);
    const share = e.costCentres.slice(0, 3).reduce((s, c) => s + c.percent, 0);
    expect(share).toBeGreaterThan(85);
  });

  it("calls MPI_Waitsome() from AMRMesh (ghost-cell updates and regridding)", () => {
    const w = e.mpi.find((m) => m.name === "MPI_Waitsome()")!;
    expect(w.callers.map((c) => c.caller).sort()).toEqual(["AMRMesh::ghostUpdate()", "AMRMesh::regrid()"]);
    expect(w.callers[0].caller).toBe("AMRMesh::ghostUpdate()");
  });

  it("spends a substantial share in message passing (paper: about a quarter; here 10-40%)", () => {
    expect(e.mpiPercent).toBeGreaterThan(10);
    expect(e.mpiPercent).toBeLessThan(40);
  });

  it("makes a few thousand proxied invocations of each component per rank (Table 1: 1632)", () => {
    expect(perRankStates).toBeGreaterThan(1000);
    expect(perRankStates).toBeLessThan(5000);
  });
});
