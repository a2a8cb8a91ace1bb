import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { formatPackedProfile, parsePackedProfile, ProfileModelError, readTrial, TrialBuilder, type Trial } from "../../index.js";
import { PPK } from "./data.js";
import fc from "fast-check";
import { arbitraryTrial, trialDifference } from "./arbitrary.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-ppk-write-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Everything a packed profile holds of a trial, in a comparable form. */
function contents(t: Trial): unknown {
  const nT = t.timers.length;
  const nE = t.userEvents.length;
  return {
    metrics: t.metrics,
    timers: t.timers.map((x) => [x.spelling ?? x.name, x.groups]),
    events: t.userEvents.map((u) => u.spelling ?? u.name),
    threads: t.threads.map((th, i) => ({
      id: [th.node, th.context, th.thread],
      metadata: Object.fromEntries([...t.threadMetadataMerged(i)].sort()),
      timers: t.timers.flatMap((_, k) => {
        const s = i * nT + k;
        return t.values.present[s] ? [[k, t.values.calls[s], t.values.subroutines[s], ...t.metrics.flatMap((_, m) => [t.values.exclusive[m][s], t.values.inclusive[m][s]])]] : [];
      }),
      events: t.userEvents.flatMap((_, u) => {
        const s = i * nE + u;
        const e = t.events;
        return e.present[s] ? [[u, e.count[s], e.min[s], e.max[s], e.mean[s], e.sumSquares[s]]] : [];
      }),
    })),
  };
}

describe("ParaProf packed profiles written", () => {
  it("are, decompressed, byte for byte the file ParaProf wrote of the same trial", () => {
    // (Real files of ParaProf's DataSourceExport.writePacked: metadata, metrics, groups by name,
    // functions, user events, every thread's profiles.)
    for (const name of ["xgc-nosamples.ppk", "mpas.ppk"]) {
      const file = join(PPK, name);
      const ours = gunzipSync(formatPackedProfile(readTrial(file)));
      expect(Buffer.compare(ours, gunzipSync(readFileSync(file))), name).toBe(0);
    }
  });

  it("read back as the trial they were written from, whatever format it came from", () => {
    for (const input of ["../shared/data/tau/hatchet-cpi-mpi", "../shared/data/tau/powercap/cap50_wrapped_am8", "test/data/tau-xml/metadata-correlation.xml", "test/data/cube/kripke.p8.d2.g32.r1/profile.cubex"]) {
      const trial = readTrial(input, { records: false });
      const back = parsePackedProfile(formatPackedProfile(trial), "back.ppk");
      expect(contents(back), input).toEqual(contents(trial));
    }
  });

  it("read back as any trial they were written from (property)", () => {
    fc.assert(
      fc.property(arbitraryTrial, (trial) => {
        const diff = trialDifference(trial, parsePackedProfile(formatPackedProfile(trial), "back.ppk", { checkInvariants: false }), { records: false });
        if (diff !== undefined) throw new Error(diff);
      }),
      { numRuns: 60, seed: 20261129 },
    );
  });

  it("write text as Java's writeUTF does: NUL in two bytes, a character outside the BMP as two surrogates of three", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const th = b.addThread(0);
    b.setValues(th, b.timer("solve \u0000 é 😀", ["TAU_USER"]), { calls: 1, exclusive: 1.5, inclusive: 2.25 });
    const trial = b.build();
    const raw = gunzipSync(formatPackedProfile(trial));
    // "solve " then C0 80 (NUL), " ", C3 A9 (é), " ", ED A0 BD ED B8 80 (U+1F600 as two surrogates).
    const name = Buffer.from([0x73, 0x6f, 0x6c, 0x76, 0x65, 0x20, 0xc0, 0x80, 0x20, 0xc3, 0xa9, 0x20, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]);
    expect(raw.indexOf(Buffer.concat([Buffer.from([0, name.length]), name]))).toBeGreaterThan(0);
    expect(contents(parsePackedProfile(formatPackedProfile(trial), "back.ppk"))).toEqual(contents(trial));
    // The same trial gives the same bytes.
    expect(Buffer.compare(formatPackedProfile(trial), formatPackedProfile(trial))).toBe(0);
  });

  it("refuse what a packed profile cannot hold, naming it", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const th = b.addThread(0);
    b.setValues(th, b.timer("x".repeat(65536), []), { calls: 1, exclusive: 1, inclusive: 1 });
    expect(() => formatPackedProfile(b.build())).toThrow(new ProfileModelError(`timer name '${"x".repeat(40)}...' takes 65536 bytes; a packed profile holds at most 65535`));
    const e = new TrialBuilder({ metrics: ["TIME"] });
    const t0 = e.addThread(0);
    e.setValues(t0, e.timer("main", []), { calls: 1, exclusive: 1, inclusive: 1 });
    e.addEventTotals(t0, e.userEvent("bytes"), { count: 2 ** 31, min: 1, max: 1, mean: 1, sumSquares: 2 ** 31 });
    expect(() => formatPackedProfile(e.build())).toThrow(/user event 'bytes' of thread 0,0,0 has 2147483648 samples; a packed profile holds at most 2147483647/);
  });

  it("refuse thread numbers and sample counts a Java int does not hold as they are, rather than write them wrapped or truncated", () => {
    // Node 2^31 was written as -2^31, which the reader refuses as an invalid thread.
    const big = new TrialBuilder({ metrics: ["TIME"] });
    big.setValues(big.addThread(2 ** 31), big.timer("main", []), { calls: 1, exclusive: 1, inclusive: 1 });
    expect(() => formatPackedProfile(big.build())).toThrow(new ProfileModelError("thread 2147483648,0,0: a packed profile holds node, context and thread numbers up to 2147483647"));
    const largest = new TrialBuilder({ metrics: ["TIME"] });
    largest.setValues(largest.addThread(2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1), largest.timer("main", []), { calls: 1, exclusive: 1, inclusive: 1 });
    expect(parsePackedProfile(formatPackedProfile(largest.build()), "back.ppk").threads).toEqual([{ node: 2 ** 31 - 1, context: 2 ** 31 - 1, thread: 2 ** 31 - 1 }]);
    // 2.5 samples were written as 2.
    const frac = new TrialBuilder({ metrics: ["TIME"] });
    frac.setEventTotals(frac.addThread(0), frac.userEvent("bytes"), { count: 2.5, min: 1, max: 1, mean: 1, sumSquares: 2.5 });
    expect(() => formatPackedProfile(frac.build())).toThrow(new ProfileModelError("user event 'bytes' of thread 0,0,0 has 2.5 samples; a packed profile holds a whole number of them"));
  });

  it("are an output of profile convert, by name or --to, with the metrics chosen", async () => {
    const out = join(scratch, "mpas-time.ppk");
    let err = "";
    expect(await main(["profile", "convert", join(PPK, "mpas.ppk"), out, "--metric", "TIME"], { out: () => {}, err: (x) => (err += x) }), err).toBe(0);
    const back = readTrial(out);
    expect(back.metrics).toEqual(["TIME"]);
    expect(back.threads).toHaveLength(128);
    const named = join(scratch, "run.packed");
    expect(await main(["profile", "convert", "../shared/data/tau/hatchet-cpi-mpi", named, "--to", "ppk"], { out: () => {}, err: () => {} })).toBe(0);
    expect(existsSync(named) && contents(readTrial(named))).toEqual(contents(readTrial("../shared/data/tau/hatchet-cpi-mpi")));
  });
});
