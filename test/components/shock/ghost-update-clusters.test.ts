import { beforeAll, describe, expect, it } from "vitest";
import type { InvocationRecord } from "../../../profile/index.js";
import { runShock } from "./run-shock.js";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Paper 000 Figure 6: per-level message-passing times of AMRMesh's ghost-cell update. */
describe("AMRMesh ghost updates: per-level clusters that shift after the regrid", () => {
  let ghost: InvocationRecord[];
  let ranks: number;
  beforeAll(() => {
    const art = runShock();
    ranks = art.result.ranks;
    ghost = art.result.mastermind!.records.filter((r) => r.component === "AMRMesh" && r.method === "ghostUpdate");
  });

  const cluster = (rank: number, level: number, epoch: number) =>
    ghost.filter((r) => r.rank === rank && r.parameters.level === level && r.parameters.epoch === epoch).map((r) => r.wallTime);

  it("records the level and the decomposition epoch of every update, and the time is message passing", () => {
    expect(new Set(ghost.map((r) => r.parameters.level))).toEqual(new Set([0, 1, 2]));
    expect(new Set(ghost.map((r) => r.parameters.epoch))).toEqual(new Set([0, 1]));
    const wall = ghost.reduce((s, r) => s + r.wallTime, 0);
    const mpi = ghost.reduce((s, r) => s + r.mpiTime, 0);
    expect(mpi / wall).toBeGreaterThan(0.95);
  });

  it("processes the levels in the order L0, L1, L2, L2, L1, L2, L2 (two RK2 stages each)", () => {
    const levels = ghost.filter((r) => r.rank === 0).map((r) => r.parameters.level);
    const step = [0, 0, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2];
    expect(levels.slice(0, 2 * step.length)).toEqual([...step, ...step]);
  });

  it("clusters per processor and level: most updates lie near their cluster's median", () => {
    let near = 0;
    let total = 0;
    for (let rank = 0; rank < ranks; rank++)
      for (const level of [0, 1, 2])
        for (const epoch of [0, 1]) {
          const xs = cluster(rank, level, epoch);
          const m = median(xs);
          // Within a factor of 3 of the cluster median (the network load scatters them, as in the paper).
          for (const x of xs) if (x > m / 3 && x < 3 * m) near++;
          total += xs.length;
        }
    expect(near / total).toBeGreaterThan(0.6);
  });

  it("shifts the clusters when the regrid changes the decomposition", () => {
    let shifted = 0;
    let compared = 0;
    for (let rank = 0; rank < ranks; rank++)
      for (const level of [0, 1, 2]) {
        const before = median(cluster(rank, level, 0));
        const after = median(cluster(rank, level, 1));
        compared++;
        if (Math.max(before, after) / Math.min(before, after) > 1.5) shifted++;
      }
    expect(shifted).toBeGreaterThanOrEqual(Math.ceil(compared / 2));
  });
});
