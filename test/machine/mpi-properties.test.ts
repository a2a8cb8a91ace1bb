import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANY_TAG, MpiDeadlockError, MpiUnreceivedMessagesError, type NetworkSpec } from "../../machine/index.js";
import { world } from "./helpers.js";

interface Msg {
  src: number;
  dst: number;
  tag: number;
  bytes: number;
  /** Receive with ANY_TAG instead of the tag. */
  anyTag: boolean;
  /** Send with isend + later wait instead of a blocking send. */
  nonBlocking: boolean;
}

const msgArb = (p: number) =>
  fc
    .record({
      src: fc.integer({ min: 0, max: p - 1 }),
      dst: fc.integer({ min: 0, max: p - 2 }),
      tag: fc.integer({ min: 0, max: 3 }),
      bytes: fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1000, max: 200000 })),
      anyTag: fc.boolean(),
      nonBlocking: fc.boolean(),
    })
    .map((m): Msg => ({ ...m, dst: m.dst >= m.src ? m.dst + 1 : m.dst }));

const scenarioArb = fc.integer({ min: 2, max: 5 }).chain((p) =>
  fc.record({
    p: fc.constant(p),
    msgs: fc.array(msgArb(p), { minLength: 1, maxLength: 30 }),
    rankToNode: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: p, maxLength: p }),
    model: fc.constantFrom("hockney", "loggp"),
    eagerLimit: fc.constantFrom(0, 512, 65536, Infinity),
    load: fc.boolean(),
    seed: fc.integer({ min: 0, max: 1000 }),
  }),
);

interface Scenario {
  p: number;
  msgs: Msg[];
  rankToNode: number[];
  model: string;
  eagerLimit: number;
  load: boolean;
  seed: number;
}

function network(model: string, eagerLimit: number, load: boolean): NetworkSpec {
  return {
    preset: "myrinet-2000",
    model,
    eagerLimit,
    load: load ? { model: "piecewise", params: { period: 50, mean: 0.5, cv: 1 } } : { model: "none" },
  };
}

/**
 * Every rank walks the global message list in order, sending what it sends and receiving what
 * it receives (skipping message `skip`'s receive). Non-blocking sends are waited for at the end.
 * Returns, per receiving rank, the ids (values) it received in order.
 */
function runProgram(s: Scenario, skip = -1) {
  const nodes = Math.max(...s.rankToNode) + 1;
  const w = world(s.p, network(s.model, s.eagerLimit, s.load), { rankToNode: s.rankToNode, nodes, seed: s.seed });
  const received: Array<Array<{ id: number; src: number; tag: number }>> = Array.from({ length: s.p }, () => []);
  w.launch(function* (c) {
    const pending: number[] = [];
    for (let i = 0; i < s.msgs.length; i++) {
      const m = s.msgs[i];
      if (m.src === c.rank) {
        if (m.nonBlocking) pending.push(yield* c.isend(m.dst, m.tag, m.bytes, i));
        else yield* c.send(m.dst, m.tag, m.bytes, i);
      } else if (m.dst === c.rank && i !== skip) {
        const src = yield* c.recv(m.src, m.anyTag ? ANY_TAG : m.tag);
        const st = c.status;
        received[c.rank].push({ id: st.value, src, tag: st.tag });
      }
    }
    yield* c.waitall(pending);
  });
  return { w, received };
}

describe("MPI properties (fast-check)", () => {
  it("random matched send/recv programs complete with every message delivered once, in order per (source, tag)", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { w, received } = runProgram(s);
        w.run();
        w.finalize();
        const ids = received.flat().map((r) => r.id).sort((a, b) => a - b);
        expect(ids).toEqual(s.msgs.map((_, i) => i));
        for (const list of received) {
          for (const r of list) {
            expect(s.msgs[r.id].src).toBe(r.src);
            expect(s.msgs[r.id].tag).toBe(r.tag);
          }
          const byKey = new Map<string, number[]>();
          for (const r of list) {
            const k = `${r.src}/${r.tag}`;
            byKey.set(k, [...(byKey.get(k) ?? []), r.id]);
          }
          for (const seq of byKey.values()) expect(seq).toEqual([...seq].sort((a, b) => a - b));
        }
      }),
      { numRuns: 150, seed: 4242 },
    );
  });

  it("random programs with one receive removed end in a report naming that rank", () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), (s, k) => {
        const skip = k % s.msgs.length;
        const victim = s.msgs[skip];
        const { w } = runProgram(s, skip);
        let err: unknown;
        try {
          w.run();
          w.finalize();
        } catch (e) {
          err = e;
        }
        const names = (u: readonly { dest: number; source: number }[]) => u.some((m) => m.dest === victim.dst && m.source === victim.src);
        if (err instanceof MpiDeadlockError) expect(names(err.unreceived)).toBe(true);
        else {
          expect(err).toBeInstanceOf(MpiUnreceivedMessagesError);
          expect(names((err as MpiUnreceivedMessagesError).unreceived)).toBe(true);
        }
        expect((err as Error).message).toContain(`rank ${victim.src} -> rank ${victim.dst}`);
      }),
      { numRuns: 150, seed: 777 },
    );
  });

  it("with synchronous (rendezvous) sends, removing a receive always deadlocks with the sender blocked on that rank", () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), (s0, k) => {
        const s = { ...s0, eagerLimit: 0, msgs: s0.msgs.map((m) => ({ ...m, nonBlocking: false, bytes: Math.max(1, m.bytes) })) };
        const skip = k % s.msgs.length;
        const victim = s.msgs[skip];
        const { w } = runProgram(s, skip);
        let err: unknown;
        try {
          w.run();
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(MpiDeadlockError);
        const d = err as MpiDeadlockError;
        const sender = d.ranks.find((r) => r.rank === victim.src);
        expect(sender?.call).toBe("MPI_Send()");
        expect(sender?.waitsFor.some((q) => q.kind === "send" && q.peer === victim.dst)).toBe(true);
        expect(d.unreceived.some((m) => m.dest === victim.dst && m.source === victim.src)).toBe(true);
      }),
      { numRuns: 100, seed: 99 },
    );
  });

  it("gives identical results for identical seeds, even with background load", () => {
    fc.assert(
      fc.property(scenarioArb, (s0) => {
        const s = { ...s0, load: true };
        const a = runProgram(s);
        a.w.run();
        const b = runProgram(s);
        b.w.run();
        expect(b.w.sim.now).toBe(a.w.sim.now);
        expect(b.received).toEqual(a.received);
      }),
      { numRuns: 40, seed: 5 },
    );
  });
});
