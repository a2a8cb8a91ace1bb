import { describe, expect, it } from "vitest";
import { buildCallGraph, Measurement } from "../../components/index.js";

describe("the call graph of a measured run", () => {
  it("gives every value as the mean over the ranks, in the tree and on the edges alike", () => {
    const clock = { t: 0 };
    const m = new Measurement(["TIME"], 2, (_rank, out) => void (out[0] = clock.t));
    const [go, run] = [m.timer("Driver::go()"), m.timer("A::run()")];
    // Rank 0 calls A::run() three times for 2 us each; rank 1 once for 6 us.
    const calls: [number, number[]][] = [
      [0, [2, 2, 2]],
      [1, [6]],
    ];
    for (const [rank, times] of calls) {
      clock.t = 0;
      m.start(rank, go);
      for (const t of times) {
        m.start(rank, run);
        clock.t += t;
        m.stop(rank, run);
      }
      clock.t += 1;
      m.stop(rank, go);
    }
    const g = buildCallGraph(m);
    expect(g.values).toBe("mean over ranks");
    expect(g.ranks).toBe(2);
    expect(g.root).toMatchObject({ name: "Driver::go()", calls: 1, inclusive: 7, exclusive: 1, inclusiveMax: 7 });
    expect(g.root.children).toEqual([{ name: "A::run()", calls: 2, inclusive: 6, exclusive: 6, inclusiveMax: 6, children: [] }]);
    // One path per edge here: the edge holds the same means as the tree's node.
    expect(g.edges).toEqual([{ caller: "Driver::go()", callee: "A::run()", calls: 2, inclusive: 6 }]);
  });
});
