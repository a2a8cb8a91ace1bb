import { describe, expect, it } from "vitest";
import { TrialBuilder, ProfileModelError, derivedView, threadView, callpathTree, findParameterTimer } from "../../index.js";

function small() {
  const b = new TrialBuilder({ metrics: ["TIME", "PAPI_FP_INS"] });
  const t1 = b.addThread(1);
  const t0 = b.addThread(0);
  const root = b.timer(".TAU application", ["TAU_DEFAULT"]);
  const f = b.timer("f  ", ["TAU_USER"]);
  const rf = b.callpath([".TAU application", "f"], ["TAU_CALLPATH"]);
  for (const [th, k] of [[t0, 1], [t1, 2]] as const) {
    b.setValues(th, root, { calls: 1, subroutines: 3, exclusive: [10 * k, 5], inclusive: [100 * k, 50] });
    b.setValues(th, f, { calls: 3, exclusive: [90 * k, 45], inclusive: [90 * k, 45] });
    b.setValues(th, rf, { calls: 3, exclusive: [90 * k, 45], inclusive: [90 * k, 45] });
  }
  return b;
}

describe("TrialBuilder", () => {
  it("labels a thread as ParaProf does, and refuses an index that is no thread's", () => {
    const trial = small().build();
    expect([trial.threadLabel(0), trial.threadLabel(1)]).toEqual(["0,0,0", "1,0,0"]);
    expect(() => trial.threadLabel(2)).toThrow(new ProfileModelError("no thread at index 2: the trial has 2 (0 to 1)"));
  });

  it("records which metadata keys a thread inherited, renumbered with the threads, hoisted keys left out", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const t1 = b.addThread(1);
    const t0 = b.addThread(0);
    const t2 = b.addThread(2);
    b.setThreadMetadata(t0, "Hostname", "a").setThreadMetadata(t0, "OS", "Linux").setThreadMetadata(t0, "pid", "10");
    b.setThreadMetadata(t1, "pid", "11").setThreadMetadata(t2, "pid", "12").setThreadMetadata(t2, "Hostname", "b");
    b.inheritThreadMetadata(t0);
    const trial = b.build();
    // OS is on every thread after inheritance: common, and inherited by none.
    expect(trial.metadata.get("OS")).toBe("Linux");
    expect(trial.inheritedMetadata.map((m) => Object.fromEntries(m))).toEqual([{}, { Hostname: 0 }, {}]);
    expect(Object.fromEntries(trial.ownThreadMetadata(1))).toEqual({ pid: "11" });
    expect(trial.threadMetadataMerged(1).get("Hostname")).toBe("a");
    expect(Object.fromEntries(trial.ownThreadMetadata(2))).toEqual({ Hostname: "b", pid: "12" });
  });

  it("sorts threads by node and keeps timer order, normalizing names", () => {
    const t = small().build();
    expect(t.threads.map((x) => x.node)).toEqual([0, 1]);
    expect(t.timers.map((x) => x.name)).toEqual([".TAU application", "f", ".TAU application => f"]);
    expect(t.timer(".TAU application   =>  f  ").path).toEqual([".TAU application", "f"]);
    expect(t.inclusive(0, t.threadIndex(1), t.timer(".TAU application").index)).toBe(200);
    expect(t.warnings).toEqual([]);
  });

  it("rejects non-finite values and unknown indices with ProfileModelError", () => {
    const b = small();
    expect(() => b.addCalls(0, 0, NaN)).toThrow(ProfileModelError);
    expect(() => b.addCalls(5, 0, 1)).toThrow(ProfileModelError);
    expect(() => b.addTime(0, 0, 7, 1, 1)).toThrow(ProfileModelError);
    expect(() => b.setValues(0, 0, { exclusive: 3 })).toThrow(/one value per metric/);
  });

  it("derives ParaProf's mean over all threads, counting missing timers as zero", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const a = b.addThread(0);
    b.addThread(1);
    const t = b.timer("only-on-0");
    b.setValues(a, t, { calls: 4, exclusive: 8, inclusive: 8 });
    const trial = b.build();
    expect(derivedView(trial, "mean").inclusive[0][t]).toBe(4);
    expect(derivedView(trial, "mean", { includeMissing: false }).inclusive[0][t]).toBe(8);
    expect(derivedView(trial, "stddev").inclusive[0][t]).toBe(4);
    expect(derivedView(trial, "min").calls[t]).toBe(4);
    expect(derivedView(trial, "total").calls[t]).toBe(4);
    expect(threadView(trial, 1).present[t]).toBe(0);
  });

  it("warns when exclusive exceeds inclusive or a child exceeds its parent", () => {
    const b = small();
    b.setValues(0, b.timer("f"), { exclusive: [500, 1], inclusive: [90, 45] });
    b.setValues(0, b.callpath([".TAU application", "f"]), { inclusive: [1e6, 45] });
    const kinds = b.build().warnings.map((w) => w.kind).sort();
    expect(kinds).toContain("exclusive-exceeds-inclusive");
    expect(kinds).toContain("child-exceeds-parent");
    expect(kinds).toContain("flat-differs-from-callpaths");
  });

  it("builds a callpath tree and finds TAU_PARAM timers by value", () => {
    const b = small();
    b.timer("g [ <size> = <100> ]");
    b.timer("g [ <size> = <1e4> ]");
    const trial = b.build();
    const tree = callpathTree(trial);
    expect(tree.truncated).toBe(false);
    expect(tree.roots.map((r) => r.name)).toEqual([".TAU application"]);
    expect(tree.roots[0].children.map((c) => c.name)).toEqual(["f"]);
    expect(findParameterTimer(trial, "g", "size", 10000)?.name).toBe("g [ <size> = <1e4> ]");
    expect(findParameterTimer(trial, "g", "size", 7)).toBeUndefined();
  });
});

describe("TrialBuilder.addCallpathValues", () => {
  it("records a timer flat and as its root-anchored callpath, as TAU does", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const th = b.addThread(0);
    b.addCallpathValues(th, [".TAU application"], { calls: 1, subroutines: 2, exclusive: 10, inclusive: 100 }, ["TAU_DEFAULT"]);
    b.addCallpathValues(th, [".TAU application", "solve"], { calls: 2, exclusive: 40, inclusive: 90 }, ["TAU_USER"]);
    const r = b.addCallpathValues(th, [".TAU application", "solve", "solve"], { calls: 1, exclusive: 50, inclusive: 50 }, ["TAU_USER"], { flatInclusive: false });
    const t = b.build();
    const solve = t.timer("solve");
    expect(r.flat).toBe(solve.index);
    expect([t.calls(0, solve.index), t.exclusive(0, 0, solve.index), t.inclusive(0, 0, solve.index)]).toEqual([3, 90, 90]);
    expect(t.timer(".TAU application => solve").groups).toEqual(["TAU_CALLPATH", "TAU_USER"]);
    expect(t.findTimer(".TAU application => solve => solve")).toBeDefined();
    expect(t.warnings).toEqual([]);
  });
});

describe("callpath tree on hostile input", () => {
  it("handles a 100000-deep callpath without exhausting the stack", async () => {
    const { walkTree } = await import("../../index.js");
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    const path = Array.from({ length: 100000 }, (_, i) => `f${i}`);
    b.callpath(path);
    const tree = callpathTree(b.build({ checkInvariants: false }));
    let deepest = 0;
    let count = 0;
    walkTree(tree, (_, d) => {
      count++;
      deepest = Math.max(deepest, d);
    });
    expect([count, deepest]).toEqual([100000, 99999]);
  });
});
