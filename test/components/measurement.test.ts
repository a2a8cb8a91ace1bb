import { describe, expect, it } from "vitest";
import { Measurement } from "../../components/index.js";

/** A measurement with TIME and one counter driven by hand. */
function setup() {
  const clock = { t: 0, c: 0 };
  const m = new Measurement(["TIME", "PAPI_FP_OPS"], 1, (_rank, out) => {
    out[0] = clock.t;
    out[1] = clock.c;
  });
  return { m, clock };
}

describe("the measurement component", () => {
  it("keeps inclusive and exclusive values of every metric along callpaths", () => {
    const { m, clock } = setup();
    const a = m.timer("A");
    const b = m.timer("B");
    m.start(0, a);
    clock.t = 2;
    clock.c = 10;
    m.start(0, b);
    clock.t = 5;
    clock.c = 40;
    m.stop(0, b);
    clock.t = 6;
    clock.c = 41;
    m.stop(0, a);
    const rp = m.ranks[0];
    const nodeA = 1;
    const nodeB = 2;
    expect(rp.path(nodeB).map((id) => m.timers.names[id])).toEqual(["A", "B"]);
    expect([rp.inclusive(nodeA, 0), rp.exclusive(nodeA, 0)]).toEqual([6, 3]);
    expect([rp.inclusive(nodeA, 1), rp.exclusive(nodeA, 1)]).toEqual([41, 11]);
    expect([rp.inclusive(nodeB, 0), rp.exclusive(nodeB, 0)]).toEqual([3, 3]);
    expect(rp.callsOf(nodeA)).toBe(1);
    expect(rp.subroutinesOf(nodeA)).toBe(1);
  });

  it("reports overlapping timers and still closes the inner one", () => {
    const { m, clock } = setup();
    const a = m.timer("A");
    const b = m.timer("B");
    m.start(0, a);
    m.start(0, b);
    clock.t = 4;
    m.stop(0, a); // B is still running inside A: an overlap
    expect(m.warnings()).toEqual(["rank 0: overlapping timers: 'A' stopped while 'B' was running inside it"]);
    expect(m.ranks[0].depth).toBe(0);
    m.stop(0, b);
    expect(m.warnings()[1]).toBe("rank 0: stop of timer 'B' which is not running");
  });

  it("disables and re-enables timer groups at run time", () => {
    const { m, clock } = setup();
    const app = m.timer("app");
    const send = m.timer("MPI_Send()", "MPI");
    m.start(0, app);
    m.disableGroup("MPI");
    m.start(0, send);
    clock.t = 1;
    m.stop(0, send);
    m.enableGroup("MPI");
    m.start(0, send);
    clock.t = 3;
    m.stop(0, send);
    m.stop(0, app);
    const rp = m.ranks[0];
    let calls = 0;
    for (let n = 1; n < rp.nodeCount; n++) if (rp.timerOf(n) === send) calls += rp.callsOf(n);
    expect(calls).toBe(1);
    expect(m.warnings()).toEqual([]);
  });

  it("keeps one callpath per child timer also under a node with many children", () => {
    const { m, clock } = setup();
    const app = m.timer("app");
    const kids = Array.from({ length: 40 }, (_, i) => m.timer(`K${i}`));
    m.start(0, app);
    for (let round = 1; round <= 3; round++)
      for (const [i, k] of kids.entries()) {
        m.start(0, k);
        clock.t += i + 1;
        m.stop(0, k);
      }
    m.stop(0, app);
    const rp = m.ranks[0];
    expect(rp.nodeCount).toBe(2 + kids.length);
    for (let n = 2; n < rp.nodeCount; n++) {
      const i = kids.indexOf(rp.timerOf(n));
      expect(rp.parentOf(n)).toBe(1);
      expect(rp.callsOf(n)).toBe(3);
      expect(rp.inclusive(n, 0)).toBe(3 * (i + 1));
    }
    expect(rp.subroutinesOf(1)).toBe(3 * kids.length);
  });

  it("answers queries with the running timers and their values so far", () => {
    const { m, clock } = setup();
    const a = m.timer("A");
    m.start(0, a);
    clock.t = 7;
    clock.c = 3;
    expect(m.query(0)).toEqual([{ name: "A", inclusive: { TIME: 7, PAPI_FP_OPS: 3 }, calls: 1 }]);
  });

  it("keeps count, min, max, sum and sum of squares of user events", () => {
    const { m } = setup();
    for (const v of [4, 1, 7]) m.trigger(0, "Message size", v);
    expect(m.events.stats[0][m.events.id("Message size")]).toEqual({ count: 3, min: 1, max: 7, sum: 12, sumSqr: 66 });
  });
});
