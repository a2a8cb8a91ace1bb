import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findParameterTimer, parseMetadataXml, readTauProfile, readTrial, threadView, callpathTree, writeTauProfile } from "../../index.js";
import { TAU } from "./data.js";

describe("real TAU text profiles", () => {
  it("reads the Hatchet cpi-mpi callpath profile (4 ranks, TIME, 2 user events)", () => {
    const t = readTrial(join(TAU, "hatchet-cpi-mpi"));
    expect(t.threads.length).toBe(4);
    expect(t.metrics).toEqual(["TIME"]);
    expect(t.userEvents.map((e) => e.name)).toEqual(["Message size for broadcast", "Message size for reduce"]);
    expect(t.timers.length).toBe(23);
    const root = t.timer(".TAU application");
    expect(t.calls(0, root.index)).toBe(1);
    expect(t.subroutines(0, root.index)).toBe(7);
    expect(t.inclusive(0, 0, root.index)).toBe(51781);
    expect(t.exclusive(0, 0, root.index)).toBe(449);
    const reduce = t.timer("MPI_Reduce()");
    expect(t.inclusive(0, t.threadIndex(2), reduce.index)).toBe(47);
    // The callpath with TAU's irregular spacing is found under its canonical name.
    const cp = t.timer(".TAU application => MPI_Finalize()   => MPI_Info_create()");
    expect(cp.path).toEqual([".TAU application", "MPI_Finalize()", "MPI_Info_create()"]);
    expect(t.inclusive(0, 0, cp.index)).toBe(296);
    expect(cp.groups).toEqual(["TAU_CALLPATH", "MPI"]);
    const ev = t.findUserEvent("Message size for reduce")!;
    const s = t.eventSlot(0, ev.index);
    expect([t.events.count[s], t.events.max[s], t.events.min[s], t.events.mean[s], t.events.sumSquares[s]]).toEqual([1, 8, 8, 8, 64]);
    expect(t.metadataString("CPU Type")).toBe("Intel(R) Xeon(R) CPU E5-2698 v3 @ 2.30GHz");
    expect(t.metadataNumber("CPU MHz")).toBe(2301);
    expect(t.metadataString("Metric Name")).toBeUndefined();
    expect(t.metadataString("CRAY_PMI_RANK", 0)).toBe("0");
    expect(t.warnings).toEqual([]);
    const tree = callpathTree(t);
    expect(tree.truncated).toBe(false);
    expect(tree.roots.map((r) => r.name)).toEqual([".TAU application"]);
    expect(tree.roots[0].children.find((c) => c.name === "MPI_Finalize()")!.children.map((c) => c.name)).toEqual([
      "MPI_Info_create()",
      "MPI_File_open()",
      "MPI_Info_free()",
      "MPI_Comm_get_attr()",
    ]);
  });

  it("reads all 45 power-cap trials with the rank count of their application", () => {
    const dirs = readdirSync(join(TAU, "powercap")).sort();
    expect(dirs.length).toBe(45);
    const ranks: Record<string, number> = { am8: 32, co8: 32, lu8: 27 };
    for (const d of dirs) {
      const t = readTauProfile(join(TAU, "powercap", d));
      expect(t.metrics, d).toEqual(["TIME"]);
      expect(t.threads.length, d).toBe(ranks[d.split("_").pop()!]);
      expect(t.findTimer(".TAU application"), d).toBeDefined();
      expect(t.warnings, d).toEqual([]);
    }
    const t = readTauProfile(join(TAU, "powercap", "cap100_wrapped_am8"));
    const ar = t.timer("MPI_Allreduce()");
    expect(t.calls(5, ar.index)).toBe(249);
    expect(t.inclusive(0, 5, ar.index)).toBe(1045259);
    expect(t.userEvents.length).toBe(3);
    const ev = t.findUserEvent("Message size for all-reduce")!;
    expect(t.events.mean[t.eventSlot(5, ev.index)]).toBe(6.634538152610442);
  });

  it("reads TAU_PARAM timers and finds them by parameter value", () => {
    const t = readTrial(join(TAU, "edge-cases/examples/wrap"));
    expect(t.threads.length).toBe(2);
    expect(t.userEvents.length).toBe(0);
    const base = "int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]";
    const p100 = findParameterTimer(t, base, "size", 100)!;
    expect(p100.name).toBe(`${base} [ <size> = <100> ]`);
    expect(p100.groups).toEqual(["TAU_PARAM", "TAU_USER"]);
    expect(threadView(t, 1).inclusive[0][p100.index]).toBe(40);
    expect(t.inclusive(0, 1, findParameterTimer(t, base, "size", "10000")!.index)).toBe(12);
    expect(t.calls(1, t.timer(base).index)).toBe(3);
  });

  it("reads context user events and marker events of the workflow example", () => {
    const t = readTrial(join(TAU, "edge-cases/examples/workflow_consolidation/reader2_0"));
    expect(t.threads.length).toBe(4);
    expect(t.userEvents.length).toBe(10);
    const ctx = t.findUserEvent("[GROUP=MAX_MARKER] Message size for broadcast : ADIOS open => MPI_Bcast()")!;
    expect(ctx.baseName).toBe("[GROUP=MAX_MARKER] Message size for broadcast");
    expect(ctx.context).toEqual(["ADIOS open", "MPI_Bcast()"]);
    const x = readTrial(join(TAU, "edge-cases/examples/workflow_consolidation/xmain_0"));
    expect(x.threads.length).toBe(8);
    expect(x.calls(3, x.timer("MPI_Barrier()").index)).toBe(1755);
    expect(x.inclusive(0, 3, x.timer("MPI_Barrier()").index)).toBe(741084);
    // Its files list an ADIOS marker event twice: merged, as ParaProf does, and said so per file.
    const repeated = x.warnings.filter((w) => w.kind === "repeated-lines" && w.message.includes("user event line(s) listed twice"));
    expect(repeated).toHaveLength(8);
    expect(repeated[0]!.message).toMatch(/xmain_0\/profile\.0\.0\.0: user event line\(s\) listed twice, merged as ParaProf merges them .*: '\[GROUP=MIN_MARKER\] ADIOS data size : ADIOS group size'$/);
    const merged = x.findUserEvent("[GROUP=MIN_MARKER] ADIOS data size : ADIOS group size")!;
    expect(x.userEvents.filter((e) => e.name === merged.name)).toHaveLength(1);
  });

  it("reads a thread file (profile.0.0.1) whose root is not first", () => {
    const t = readTrial(join(TAU, "edge-cases/tools/src/taudb_c_api/tests/parse_tau_profile_test"));
    expect(t.threads).toEqual([
      { node: 0, context: 0, thread: 0 },
      { node: 0, context: 0, thread: 1 },
    ]);
    const th = t.threadIndex(0, 0, 1);
    expect(t.inclusive(0, th, t.timer("compute OpenMP region").index)).toBe(1120473);
    const single = readTrial(join(TAU, "edge-cases/tools/src/taudb_c_api/tests/parse_tau_profile_test/profile.0.0.1"));
    expect(single.threads).toEqual([{ node: 0, context: 0, thread: 1 }]);
  });

  it("takes metric names from line 1 and metadata in the MULTI__ layout", () => {
    const t = readTrial(join(TAU, "xgc-nosamples-text"));
    expect(t.threads.length).toBe(16);
    expect(t.timers.length).toBe(42);
    expect(t.userEvents.length).toBe(4);
    expect([...t.metrics].sort()).toEqual(["PAPI_BR_MSP", "PAPI_FP_INS", "PAPI_L1_DCM", "PAPI_TOT_CYC", "PAPI_TOT_INS"]);
    const ar = t.timer("MPI_Allreduce()");
    expect(t.calls(7, ar.index)).toBe(2460);
    expect(t.inclusive(t.metricIndex("PAPI_FP_INS"), 7, ar.index)).toBe(824145);
  });
});

describe("TAU_PARAM series", () => {
  it("lists a routine's values by parameter, numerically ordered", async () => {
    const { parameterSeries } = await import("../../index.js");
    const t = readTrial(join(TAU, "edge-cases/examples/wrap"));
    const s = parameterSeries(t, threadView(t, 1), "int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]", "size");
    expect(s.map((p) => [p.value, p.calls, p.inclusive])).toEqual([
      [100, 1, 40],
      [10000, 1, 12],
      [100000, 1, 12],
    ]);
  });

  it("takes profile.0.0.0's metadata as every thread's default, as ParaProf (power-cap AMG, 32 ranks)", () => {
    const t = readTrial(join(TAU, "powercap", "cap50_wrapped_am8"));
    // Written only into profile.0.0.0; the other files hold only their pid.
    expect(t.metadataNumber("CPU MHz")).toBe(2600);
    expect(t.metadataString("CPU Type")).toBe("Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz");
    for (let th = 0; th < t.threads.length; th++) expect(t.metadataNumber("CPU MHz", th)).toBe(2600);
    // A thread's own value overrides the default.
    const pids = new Set(t.threads.map((_, th) => t.metadataString("pid", th)));
    expect(pids.size).toBe(32);
    expect(t.metadata.has("pid")).toBe(false);
  });

  it("writes metadata back in TAU's layout: all of thread 0,0,0's in profile.0.0.0, only what differs elsewhere (power-cap AMG)", () => {
    const src = join(TAU, "powercap", "cap50_wrapped_am8");
    const dir = mkdtempSync(join(tmpdir(), "ccasim-meta-"));
    try {
      const t = readTrial(src);
      const out = join(dir, "out");
      writeTauProfile(t, out);
      const attributes = (file: string) => {
        const pairs = parseMetadataXml(readFileSync(file, "utf8").split("\n")[1].replace(/^.*?(<metadata>)/, "$1"));
        if (typeof pairs === "string") throw new Error(pairs);
        return pairs;
      };
      const files = readdirSync(src).filter((f) => f.startsWith("profile."));
      expect(files.length).toBe(32);
      let written = 0;
      let original = 0;
      for (const f of files) {
        expect(attributes(join(out, f)), f).toEqual(attributes(join(src, f)));
        written += statSync(join(out, f)).size;
        original += statSync(join(src, f)).size;
      }
      expect(attributes(join(out, "profile.0.0.0")).length).toBe(50);
      expect(attributes(join(out, "profile.1.0.0")).map(([k]) => k)).toEqual(["Metric Name", "pid"]);
      // Only timer values and number spelling may differ from TAU's own bytes.
      expect(written / original).toBeLessThan(1.05);
      // Reading the written profile gives every thread the metadata the original gave it.
      const back = readTrial(out);
      for (let th = 0; th < t.threads.length; th++) expect(back.threadMetadataMerged(th), `thread ${th}`).toEqual(t.threadMetadataMerged(th));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes timer names and group lists back byte for byte (padding, TAU_PARAM groups)", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-names-"));
    try {
      for (const [src, file] of [
        ["hatchet-cpi-mpi", "profile.0.0.0"],
        [join("edge-cases", "examples", "wrap"), "profile.0.0.0"],
        [join("edge-cases", "examples", "wrap"), "profile.1.0.0"],
      ]) {
        const out = join(dir, src.replace(/\W/g, "_"));
        writeTauProfile(readTrial(join(TAU, src)), out, { overwrite: true });
        const namesAndGroups = (text: string): string[] =>
          text
            .split("\n")
            .filter((l) => l.startsWith('"'))
            .map((l) => (l.includes('GROUP="') ? `${l.slice(0, l.lastIndexOf('"', l.indexOf(' GROUP="')) + 1)} ${l.slice(l.indexOf('GROUP="'))}` : l.slice(0, l.lastIndexOf('"') + 1)))
            .sort();
        expect(namesAndGroups(readFileSync(join(out, file), "utf8")), `${src}/${file}`).toEqual(namesAndGroups(readFileSync(join(TAU, src, file), "utf8")));
      }
      const hatchet = readFileSync(join(dir, "hatchet_cpi_mpi", "profile.0.0.0"), "utf8");
      expect(hatchet).toContain('".TAU application => MPI_Finalize()   => MPI_Info_create()" ');
      const wrap = readFileSync(join(dir, "edge_cases_examples_wrap", "profile.0.0.0"), "utf8");
      expect(wrap).toContain('"int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]   [ <size> = <100> ]  " ');
      expect(wrap).toContain('GROUP="TAU_PARAM | TAU_USER"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
