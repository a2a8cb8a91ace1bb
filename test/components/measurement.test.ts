import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Measurement } from "../../components/index.js";

/** A measurement with TIME and one counter driven by hand. */
/**
 * Rank 0 in `app` calls MPI_Send() from 0 to 1 with the MPI group disabled, then from 1 to 3
 * with it enabled again, and leaves `app` at 3.
 */
function sendWhileDisabledThenEnabled(m: Measurement, clock: { t: number }): { app: number; send: number } {
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
  return { app, send };
}

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

  it("lists the first thousand warnings of a run and counts the rest, one per rank counted once", () => {
    const m = new Measurement(["TIME"], 30, (_rank, out) => void (out[0] = 0));
    const a = m.timer("A");
    for (let r = 0; r < 30; r++) for (let k = 0; k < 50; k++) m.stop(r, a);
    const w = m.warnings();
    expect(w).toHaveLength(1001);
    expect(w[999]).toBe("rank 19: stop of timer 'A' which is not running");
    expect(w[1000]).toBe("500 more warnings not listed");
    m.stop(0, a);
    expect(m.warnings()[1000]).toBe("501 more warnings not listed");
  });

  it("keeps the first hundred warnings of a rank and counts the rest", () => {
    const m = new Measurement(["TIME"], 2, (_rank, out) => void (out[0] = 0));
    const a = m.timer("A");
    for (let k = 0; k < 250; k++) m.stop(1, a);
    m.stop(0, a);
    const w = m.warnings();
    expect(w).toHaveLength(102);
    expect(w[0]).toBe("rank 0: stop of timer 'A' which is not running");
    expect(w.slice(1, 101).every((x) => x === "rank 1: stop of timer 'A' which is not running")).toBe(true);
    expect(w[101]).toBe("150 more warnings not listed");
  });

  it("disables and re-enables timer groups at run time", () => {
    const { m, clock } = setup();
    const { send } = sendWhileDisabledThenEnabled(m, clock);
    const rp = m.ranks[0];
    let calls = 0;
    for (let n = 1; n < rp.nodeCount; n++) if (rp.timerOf(n) === send) calls += rp.callsOf(n);
    expect(calls).toBe(1);
    expect(m.warnings()).toEqual([]);
  });

  it("keeps every finished call as a trace interval with trace: true, but not those of a disabled group, as the profile", () => {
    const clock = { t: 0 };
    const m = new Measurement(["TIME"], 1, (_rank, out) => (out[0] = clock.t), { trace: true });
    const { app, send } = sendWhileDisabledThenEnabled(m, clock);
    // [rank, timer, start, end]: the call made while MPI was disabled is not there.
    expect(m.trace!.intervals()).toEqual([
      [0, send, 1, 3],
      [0, app, 0, 3],
    ]);
    expect(new Measurement(["TIME"], 1, (_rank, out) => (out[0] = 0)).trace).toBeUndefined();
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
    expect(m.query(0)).toEqual([{ name: "A", inclusive: { TIME: 7, PAPI_FP_OPS: 3 }, exclusive: { TIME: 7, PAPI_FP_OPS: 3 }, calls: 1, subroutines: 0 }]);
  });

  it("answers queries with each running timer's exclusive values so far and the timers it called (paper 001's query interface)", () => {
    const { m, clock } = setup();
    const a = m.timer("A");
    const b = m.timer("B");
    const c = m.timer("C");
    // A: one finished call of 10 (2 of them in B), then a running call.
    m.start(0, a);
    clock.t = 1;
    m.start(0, b);
    clock.t = 3;
    m.stop(0, b);
    clock.t = 10;
    m.stop(0, a);
    m.start(0, a); // t = 10
    clock.t = 12;
    m.start(0, b); // a finished B call inside the running A: 12 .. 15, 4 flops
    clock.t = 15;
    clock.c = 4;
    m.stop(0, b);
    clock.t = 16;
    m.start(0, c); // the running child: 16 .. 20, 2 flops so far
    clock.t = 20;
    clock.c = 6;
    expect(m.query(0)).toEqual([
      // A: inclusive 10 + (20 - 10); exclusive 8 + (16 - 10) - 3 (up to C's start, less B); flops: 4 before C, all B's
      { name: "A", inclusive: { TIME: 20, PAPI_FP_OPS: 6 }, exclusive: { TIME: 11, PAPI_FP_OPS: 0 }, calls: 2, subroutines: 3 },
      { name: "C", inclusive: { TIME: 4, PAPI_FP_OPS: 2 }, exclusive: { TIME: 4, PAPI_FP_OPS: 2 }, calls: 1, subroutines: 0 },
    ]);
  });

  it("keeps count, min, max, sum and sum of squares of user events", () => {
    const { m } = setup();
    for (const v of [4, 1, 7]) m.trigger(0, "Message size", v);
    expect(m.events.stats[0][m.events.id("Message size")]).toEqual({ count: 3, min: 1, max: 7, sum: 12, sumSqr: 66 });
  });

  it("counts running calls and the subroutines started inside them before they stop", () => {
    const { m } = setup();
    const a = m.timer("A");
    const b = m.timer("B");
    m.start(0, a);
    m.start(0, b);
    m.stop(0, b);
    m.start(0, b);
    const rp = m.ranks[0];
    expect([rp.callsOf(1), rp.subroutinesOf(1)]).toEqual([1, 2]);
    expect(rp.callsOf(2)).toBe(2);
    m.stop(0, b);
    m.stop(0, a);
    expect([rp.callsOf(1), rp.subroutinesOf(1), rp.callsOf(2), rp.subroutinesOf(2)]).toEqual([1, 2, 2, 0]);
  });

  it("keeps a deep stack of running timers (grown past its first size)", () => {
    const { m, clock } = setup();
    const ids = Array.from({ length: 40 }, (_, i) => m.timer(`L${i}`));
    for (const id of ids) {
      m.start(0, id);
      clock.t += 1;
    }
    const rp = m.ranks[0];
    expect(rp.depth).toBe(40);
    for (const id of [...ids].reverse()) m.stop(0, id);
    expect(rp.depth).toBe(0);
    // Node n + 1 is L{n}: started at time n, stopped at 40.
    for (let n = 0; n < 40; n++) expect([rp.timerOf(n + 1), rp.inclusive(n + 1, 0), rp.exclusive(n + 1, 0), rp.callsOf(n + 1)]).toEqual([ids[n], 40 - n, 1, 1]);
    expect(m.warnings()).toEqual([]);
  });

  it("keeps every rank's values when another rank's storage grows and moves", () => {
    const clock = { t: 0 };
    const m = new Measurement(["TIME"], 3, (_rank, out) => (out[0] = clock.t));
    const outer = m.timer("outer");
    const ids = Array.from({ length: 40 }, (_, i) => m.timer(`K${i}`));
    m.start(0, outer);
    m.start(2, outer);
    m.start(1, outer);
    for (const id of ids) m.start(1, id); // 41 running frames on rank 1
    clock.t = 10;
    for (const id of [...ids].reverse()) m.stop(1, id);
    for (const id of ids) {
      m.start(1, id); // 40 children of one node: rank 1's tree outgrows its room again
      clock.t += 1;
      m.stop(1, id);
    }
    m.stop(1, outer);
    m.stop(2, outer);
    clock.t = 100;
    m.stop(0, outer);
    expect([m.ranks[0].nodeCount, m.ranks[0].inclusive(1, 0), m.ranks[0].callsOf(1)]).toEqual([2, 100, 1]);
    expect([m.ranks[2].nodeCount, m.ranks[2].inclusive(1, 0), m.ranks[2].callsOf(1)]).toEqual([2, 50, 1]);
    const r1 = m.ranks[1];
    expect(r1.nodeCount).toBe(2 + 40 + 39);
    expect([r1.inclusive(1, 0), r1.exclusive(1, 0), r1.subroutinesOf(1)]).toEqual([50, 0, 41]);
    expect(m.warnings()).toEqual([]);
  });

  it("gives the same profile for remembered (low) and other timer ids, whatever the nesting (fast-check)", () => {
    // A program: a tree of timer activations, each lasting some ticks of its own.
    type Call = { timer: number; own: number; children: Call[] };
    const call: fc.Memo<Call> = fc.memo((n) =>
      fc.record({ timer: fc.integer({ min: 0, max: 4 }), own: fc.integer({ min: 0, max: 5 }), children: n > 1 ? fc.array(call(n - 1), { maxLength: 3 }) : fc.constant([]) }),
    );
    fc.assert(
      fc.property(fc.array(call(5), { minLength: 1, maxLength: 4 }), (program) => {
        const run = (hinted: boolean) => {
          const { m, clock } = setup();
          // A rank remembers the last callpath node of its first few timer ids only.
          if (!hinted) for (let i = 0; i < 10; i++) m.timer(`unused ${i}`);
          const ids = [0, 1, 2, 3, 4].map((i) => m.timer(`T${i}`));
          const values = new Float64Array(2);
          const exec = (c: Call) => {
            values[0] = clock.t;
            values[1] = clock.c;
            m.startWith(0, ids[c.timer], values);
            clock.t += c.own;
            clock.c += 2 * c.own;
            c.children.forEach(exec);
            m.stop(0, ids[c.timer]);
          };
          program.forEach(exec);
          const rp = m.ranks[0];
          const nodes = [];
          for (let n = 1; n < rp.nodeCount; n++)
            nodes.push([rp.path(n).map((id) => m.timers.names[id]), rp.callsOf(n), rp.subroutinesOf(n), rp.inclusive(n, 0), rp.exclusive(n, 0), rp.inclusive(n, 1), rp.exclusive(n, 1)]);
          return { nodes, rp };
        };
        const plain = run(false);
        const hinted = run(true);
        expect(hinted.nodes).toEqual(plain.nodes);
        // Inclusive = exclusive + the children's inclusive, at every node and for both metrics.
        const rp = hinted.rp;
        for (let n = 1; n < rp.nodeCount; n++)
          for (let k = 0; k < 2; k++) {
            let children = 0;
            for (let c = 1; c < rp.nodeCount; c++) if (rp.parentOf(c) === n) children += rp.inclusive(c, k);
            expect(rp.inclusive(n, k)).toBe(rp.exclusive(n, k) + children);
          }
      }),
      { numRuns: 200 },
    );
  });

  it("gives every rank the profile it would have alone when ranks of different depth and callpaths interleave (fast-check)", () => {
    // Deep and wide enough that the shared stack and node capacities (8 at first) grow mid-run.
    type Call = { timer: number; own: number; children: Call[] };
    const call: fc.Memo<Call> = fc.memo((n) =>
      fc.record({ timer: fc.integer({ min: 0, max: 11 }), own: fc.integer({ min: 0, max: 3 }), children: n > 1 ? fc.array(call(n - 1), { maxLength: 2 }) : fc.constant([]) }),
    );
    /** The starts and stops of a program with the metric values at each (TIME, and twice TIME as the counter). */
    const steps = (program: Call[]) => {
      const out: { start: boolean; timer: number; t: number }[] = [];
      let t = 0;
      const exec = (c: Call) => {
        out.push({ start: true, timer: c.timer, t });
        t += c.own;
        c.children.forEach(exec);
        out.push({ start: false, timer: c.timer, t });
      };
      program.forEach(exec);
      return out;
    };
    const profileOf = (m: Measurement, rank: number) => {
      const rp = m.ranks[rank];
      const nodes = [];
      for (let n = 1; n < rp.nodeCount; n++) nodes.push([rp.path(n).join("/"), rp.callsOf(n), rp.subroutinesOf(n), rp.inclusive(n, 0), rp.exclusive(n, 0), rp.inclusive(n, 1), rp.exclusive(n, 1)]);
      return nodes;
    };
    fc.assert(
      fc.property(fc.array(fc.array(call(10), { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 4 }), fc.nat(), (programs, seed) => {
        const read = () => {};
        const together = new Measurement(["TIME", "PAPI_FP_OPS"], programs.length, read);
        const alone = programs.map(() => new Measurement(["TIME", "PAPI_FP_OPS"], 1, read));
        const ids = Array.from({ length: 12 }, (_, i) => i);
        for (const m of [together, ...alone]) ids.forEach((i) => m.timer(`T${i}`));
        const todo = programs.map(steps);
        const next = programs.map(() => 0);
        const values = new Float64Array(2);
        // Ranks take turns in a seeded order; each also runs its program alone.
        let turn = seed;
        while (next.some((k, r) => k < todo[r].length)) {
          turn = (Math.imul(turn, 1103515245) + 12345) >>> 0;
          const r = (turn >>> 16) % programs.length;
          if (next[r] === todo[r].length) continue;
          const st = todo[r][next[r]++];
          values[0] = st.t;
          values[1] = 2 * st.t;
          for (const [m, rank] of [[together, r], [alone[r], 0]] as const) {
            if (st.start) m.startWith(rank, st.timer, values);
            else m.stopWith(rank, st.timer, values);
          }
        }
        programs.forEach((_, r) => expect(profileOf(together, r)).toEqual(profileOf(alone[r], 0)));
        expect(together.warnings()).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it("gives exactly 0 exclusive to a parent its children fill, and never a negative exclusive value, though the differences round (fast-check)", () => {
    // A counter's run (cycles since boot, up to about 1e12) cut into back-to-back child calls at
    // random points (in 2^-30 of the run) inside one parent call: each call's value is a difference
    // of two counter readings, and the children's add up to the parent's only up to rounding.
    const cuts = fc.array(fc.integer({ min: 0, max: 2 ** 30 }), { minLength: 2, maxLength: 12 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), cuts, (scale, fractions) => {
        const run = 1e6 + scale * 1234.567;
        const clock = { c: 0 };
        const m = new Measurement(["TIME", "PAPI_TOT_CYC"], 1, (_rank, out) => {
          out[0] = 0;
          out[1] = clock.c;
        });
        const parent = m.timer("parent");
        const child = m.timer("child");
        const points = [...fractions].sort((a, b) => a - b).map((f) => (f / 2 ** 30) * run);
        clock.c = points[0];
        m.start(0, parent);
        for (let i = 0; i + 1 < points.length; i++) {
          clock.c = points[i];
          m.start(0, child);
          clock.c = points[i + 1];
          m.stop(0, child);
        }
        m.stop(0, parent);
        const rp = m.ranks[0];
        // Neither 1e-16 of the call above 0 nor below: the parent does nothing of its own.
        expect(rp.exclusive(1, 1)).toBe(0);
        for (const node of [1, 2]) {
          expect(rp.exclusive(node, 1)).toBeGreaterThanOrEqual(0);
          expect(rp.exclusive(node, 1)).toBeLessThanOrEqual(rp.inclusive(node, 1));
        }
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it("keeps a negative exclusive value that is no rounding (a metric that can fall), and NaN", () => {
    const level = { v: 100 };
    const m = new Measurement(["TIME", "MEMORY_IN_USE"], 1, (_rank, out) => {
      out[0] = 0;
      out[1] = level.v;
    });
    const [outer, inner] = [m.timer("outer"), m.timer("inner")];
    m.start(0, outer);
    m.start(0, inner);
    level.v = 160; // the inner call allocates 60
    m.stop(0, inner);
    level.v = 130; // the outer call frees 30 after it
    m.stop(0, outer);
    expect([m.ranks[0].inclusive(1, 1), m.ranks[0].exclusive(1, 1)]).toEqual([30, -30]);
    level.v = NaN;
    m.start(0, outer);
    m.stop(0, outer);
    expect(m.ranks[0].exclusive(1, 1)).toBeNaN();
  });
});
