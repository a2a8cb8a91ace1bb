import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callpathTree, defaultMetric, readPackedProfile, readTrial, userEventTable } from "../../index.js";
import { PPK, TAU } from "./data.js";

describe("real ParaProf packed profiles", () => {
  it("reads mpas.ppk: 128 ranks, TIME + 4 PAPI metrics, MPI-IO context events", () => {
    const t = readTrial(join(PPK, "mpas.ppk"));
    expect(t.threads.length).toBe(128);
    expect(t.metrics).toEqual(["PAPI_BR_MSP", "PAPI_FP_INS", "PAPI_L1_DCM", "PAPI_TOT_INS", "TIME"]);
    expect(t.timers.length).toBe(78);
    expect(t.userEvents.length).toBe(15);
    const root = t.timer(".TAU application");
    const r5 = t.threadIndex(5);
    expect(t.calls(r5, root.index)).toBe(1);
    expect(t.subroutines(r5, root.index)).toBe(1215);
    expect(t.inclusive(t.metricIndex("TIME"), r5, root.index)).toBe(817921962);
    expect(t.exclusive(t.metricIndex("PAPI_FP_INS"), r5, root.index)).toBe(26715);
    const ctx = t.findUserEvent("MPI-IO Bytes Read : initialize => MPI_File_read_all()")!;
    expect(ctx.context).toEqual(["initialize", "MPI_File_read_all()"]);
    const s = t.eventSlot(r5, ctx.index);
    expect([t.events.count[s], t.events.min[s], t.events.max[s], t.events.sumSquares[s]]).toEqual([66, 0, 938448, 10345712144896]);
    expect(t.events.mean[s]).toBeCloseTo(175691.1515151515, 9);
    expect(t.warnings).toEqual([]);
  });

  it("reads xgc.ppk: 16 ranks x 6 threads, callpaths with sampled nodes", () => {
    const t = readPackedProfile(join(PPK, "xgc.ppk"));
    expect(t.threads.length).toBe(96);
    expect(new Set(t.threads.map((x) => x.thread))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(t.timers.length).toBe(2562);
    expect(t.userEvents.length).toBe(14);
    const th = t.threadIndex(3, 0, 0);
    const ar = t.timer("MPI_Allreduce()");
    expect(t.calls(th, ar.index)).toBe(2460);
    expect(t.inclusive(t.metricIndex("TIME"), th, ar.index)).toBe(21044901);
    const inter = t.timer(".TAU application => [INTERMEDIATE] .TAU application");
    expect(t.calls(t.threadIndex(3, 0, 2), inter.index)).toBe(3404);
    // [INTERMEDIATE]/[SAMPLE] nodes are exempt from the invariant checks.
    expect(t.warnings).toEqual([]);
  });

  it("reads wrf-callpath.ppk: depth-2 callpaths make a truncated tree", () => {
    const t = readTrial(join(PPK, "wrf-callpath.ppk"));
    expect(t.threads.length).toBe(16);
    expect(t.metrics).toEqual(["TIME"]);
    expect(t.timers.length).toBe(2973);
    expect(t.userEvents.length).toBe(4);
    const r7 = t.threadIndex(7);
    expect(t.calls(r7, t.timer("MPI_Wait()").index)).toBe(38760);
    expect(t.inclusive(0, r7, t.timer("MPI_Wait()").index)).toBe(87977326);
    const cp = t.findCallpath(["CALL_PKG_AND_DIST [{module_io.f90} {21989,1}-{22095,32}]", "CALL_PKG_AND_DIST_INT [{module_io.f90} {22225,1}-{22279,36}]"])!;
    expect([t.calls(r7, cp.index), t.subroutines(r7, cp.index), t.exclusive(0, r7, cp.index), t.inclusive(0, r7, cp.index)]).toEqual([20, 40, 138, 204389]);
    const tree = callpathTree(t);
    expect(tree.truncated).toBe(true);
    expect(tree.roots.length).toBeGreaterThan(1);
  });

  it("reads every GROMACS scaling trial with its rank count", () => {
    const files = readdirSync(join(PPK, "gromacs-scaling"));
    expect(files.length).toBe(8);
    for (const f of files) {
      const t = readTrial(join(PPK, "gromacs-scaling", f));
      expect(t.threads.length, f).toBe(Number(f.replace(".ppk", "")));
      expect(t.metrics, f).toEqual(["TIME"]);
      expect(t.userEvents.length, f).toBe(5);
    }
    const t = readTrial(join(PPK, "gromacs-scaling", "256.ppk"));
    const w = t.timer("MPI_Waitall()");
    expect(t.timers.length).toBe(640);
    expect(t.calls(t.threadIndex(200), w.index)).toBe(2928);
    expect(t.inclusive(0, t.threadIndex(200), w.index)).toBe(499598);
  });

  it("loads xgc-nosamples.ppk and its text conversion to the same values", () => {
    const a = readTrial(join(PPK, "xgc-nosamples.ppk"));
    const b = readTrial(join(TAU, "xgc-nosamples-text"));
    expect(b.warnings).toEqual([]);
    expect(a.warnings).toEqual([]);
    expect(a.threads).toEqual(b.threads);
    expect([...a.metrics].sort()).toEqual([...b.metrics].sort());
    // The metrics come in another order (measured, and by folder name), the default metric not:
    // no time metric, so the cycles.
    expect(a.metrics).not.toEqual(b.metrics);
    expect([defaultMetric(a), defaultMetric(b)]).toEqual(["PAPI_TOT_CYC", "PAPI_TOT_CYC"]);
    expect(a.timers.map((t) => t.name).sort()).toEqual(b.timers.map((t) => t.name).sort());
    expect(a.userEvents.map((u) => u.name).sort()).toEqual(b.userEvents.map((u) => u.name).sort());
    let compared = 0;
    for (const ta of a.timers) {
      const tb = b.timer(ta.name);
      expect(tb.groups).toEqual(ta.groups);
      for (let th = 0; th < a.threads.length; th++) {
        expect(b.has(th, tb.index)).toBe(a.has(th, ta.index));
        expect(b.calls(th, tb.index)).toBe(a.calls(th, ta.index));
        expect(b.subroutines(th, tb.index)).toBe(a.subroutines(th, ta.index));
        for (let m = 0; m < a.metrics.length; m++) {
          const mb = b.metricIndex(a.metrics[m]);
          expect(b.exclusive(mb, th, tb.index)).toBe(a.exclusive(m, th, ta.index));
          expect(b.inclusive(mb, th, tb.index)).toBe(a.inclusive(m, th, ta.index));
          compared++;
        }
      }
    }
    expect(compared).toBe(42 * 16 * 5);
    for (const ua of a.userEvents) {
      const ub = b.findUserEvent(ua.name)!;
      for (let th = 0; th < a.threads.length; th++) {
        const sa = a.eventSlot(th, ua.index);
        const sb = b.eventSlot(th, ub.index);
        for (const f of ["present", "count", "min", "max", "mean", "sumSquares"] as const) expect(b.events[f][sb]).toBe(a.events[f][sa]);
      }
    }
    const ar = a.timer("MPI_Allreduce()");
    expect(a.inclusive(a.metricIndex("PAPI_FP_INS"), 7, ar.index)).toBe(824145);
  });
});

describe("packed profile container", () => {
  it("reads an already-decompressed .ppk as ParaProf does", async () => {
    const { readFileSync } = await import("node:fs");
    const { gunzipSync } = await import("node:zlib");
    const raw = gunzipSync(readFileSync(join(PPK, "xgc-nosamples.ppk")));
    const a = readPackedProfile(join(PPK, "xgc-nosamples.ppk"));
    const { parsePackedProfile } = await import("../../index.js");
    const b = parsePackedProfile(raw, "raw.ppk");
    expect(b.threads).toEqual(a.threads);
    expect(Array.from(b.values.inclusive[2])).toEqual(Array.from(a.values.inclusive[2]));
    expect(b.metadata).toEqual(a.metadata);
  });

  it("refuses a negative count of calls, naming its byte offset", async () => {
    const { readFileSync } = await import("node:fs");
    const { gunzipSync } = await import("node:zlib");
    const { parsePackedProfile, ProfileFormatError } = await import("../../index.js");
    const raw = Buffer.from(gunzipSync(readFileSync(join(PPK, "wrf-callpath.ppk"))));
    // The stream's first double 38760 is a call count (MPI_Wait()'s, as above).
    const calls = Buffer.alloc(8);
    calls.writeDoubleBE(38760);
    const at = raw.indexOf(calls);
    raw.writeDoubleBE(-38760, at);
    let err: unknown;
    try {
      parsePackedProfile(raw, "neg.ppk");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProfileFormatError);
    expect((err as Error).message).toBe(`neg.ppk (byte ${at}): calls and subroutine calls are counts, found calls -38760`);
    // The subroutine count just after it: named at its own offset.
    raw.writeDoubleBE(38760, at);
    const subrs = raw.readDoubleBE(at + 8);
    raw.writeDoubleBE(-1 - subrs, at + 8);
    expect(() => parsePackedProfile(raw, "neg.ppk")).toThrow(`neg.ppk (byte ${at + 8}): calls and subroutine calls are counts, found subroutine calls ${-1 - subrs}`);
  });

  it("names the byte offset of a truncated stream", async () => {
    const { readFileSync } = await import("node:fs");
    const { gunzipSync } = await import("node:zlib");
    const { parsePackedProfile, ProfileFormatError } = await import("../../index.js");
    const raw = gunzipSync(readFileSync(join(PPK, "xgc-nosamples.ppk")));
    const cut = raw.subarray(0, 5000);
    let err: unknown;
    try {
      parsePackedProfile(cut, "cut.ppk");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProfileFormatError);
    expect((err as InstanceType<typeof ProfileFormatError>).message).toMatch(/^cut\.ppk \(byte \d+\): (unexpected end of data|invalid .* bytes left)/);
  });

  it("takes user-event minima and maxima of derived views only from threads with samples (xgc.ppk)", () => {
    const t = readTrial(join(PPK, "xgc.ppk"));
    const table = (view: string) => userEventTable(t, view).rows.find((r) => r.name === "MPI-IO Bytes Read")!;
    // Thread 0 has all 8 samples (min 28); the other threads list the event with 0 samples.
    expect(table("0").samples).toBe(8);
    expect(table("0").min).toBe(28);
    for (const view of ["total", "mean"]) {
      expect(table(view).min, view).toBe(28);
      expect(table(view).max, view).toBe(852);
    }
    expect(table("min").min).toBe(28);
    expect(table("max").max).toBe(852);
  });
});
