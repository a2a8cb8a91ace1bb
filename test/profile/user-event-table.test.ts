import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { derivedEventView, formatUserEventTable, readTrial, TrialBuilder, userEventTable } from "../../profile/index.js";
import { main } from "../../cli/main.js";
import { PPK, TAU } from "./data.js";

describe("user-event tables (pprof's USER EVENTS Profile)", () => {
  it("prints a thread's events as pprof does, by name, with the population standard deviation", () => {
    const trial = readTrial(join(TAU, "hatchet-cpi-mpi"));
    const table = userEventTable(trial, "0,0,0");
    expect(formatUserEventTable(table)).toBe(
      [
        "USER EVENTS Profile :NODE 0, CONTEXT 0, THREAD 0",
        "-".repeat(87),
        "NumSamples   MaxValue   MinValue  MeanValue  Std. Dev.  Event Name",
        "-".repeat(87),
        "         1          4          4          4          0  Message size for broadcast",
        "         1          8          8          8          0  Message size for reduce",
        "-".repeat(87),
        "",
      ].join("\n"),
    );
  });

  it("takes the standard deviation from the sum of squares, and derived views over the threads", () => {
    const trial = readTrial(join(PPK, "gromacs-scaling", "2.ppk"));
    const e = trial.userEvents.find((u) => u.name === "Message size for all-reduce")!;
    const n = trial.userEvents.length;
    const s = e.index; // thread 0
    const { count, mean, sumSquares } = trial.events;
    const row = userEventTable(trial, "0,0,0").rows.find((r) => r.name === e.name)!;
    expect(row.samples).toBe(count[s]);
    expect(row.stddev).toBeCloseTo(Math.sqrt(sumSquares[s] / count[s] - mean[s] ** 2), 9);
    // total: the samples of both threads together
    const total = userEventTable(trial, "total").rows.find((r) => r.name === e.name)!;
    expect(total.samples).toBe(count[s] + count[n + s]);
    const m = (mean[s] * count[s] + mean[n + s] * count[n + s]) / total.samples;
    expect(total.mean).toBeCloseTo(m, 9);
    expect(total.stddev).toBeCloseTo(Math.sqrt((sumSquares[s] + sumSquares[n + s]) / total.samples - m * m), 6);
    // max: the larger of the threads' own standard deviations
    const own = [0, 1].map((th) => Math.sqrt(Math.max(0, sumSquares[th * n + s] / count[th * n + s] - mean[th * n + s] ** 2)));
    expect(userEventTable(trial, "max").rows.find((r) => r.name === e.name)!.stddev).toBeCloseTo(Math.max(...own), 9);
    expect(() => userEventTable(trial, "7,0,0")).toThrow(/no thread 7,0,0/);
  });

  it("divides the stddev view by all threads, a thread without the event counting 0, as the other columns do", () => {
    const trial = readTrial(join(PPK, "mpas.ppk"));
    const e = trial.userEvents.find((u) => u.name === "MPI-IO Bytes Written : total time => MPI_File_write_at()")!;
    const n = trial.userEvents.length;
    const { present, count, mean, sumSquares } = trial.events;
    const own = trial.threads.map((_, th) => {
      const s = th * n + e.index;
      return present[s] === 1 && count[s] > 0 ? Math.sqrt(Math.max(0, sumSquares[s] / count[s] - mean[s] ** 2)) : 0;
    });
    const holding = trial.threads.filter((_, th) => present[th * n + e.index] === 1).length;
    expect(holding).toBeLessThan(trial.threads.length);
    expect(Math.max(...own)).toBeGreaterThan(0);
    const popStd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / xs.length - (xs.reduce((a, x) => a + x, 0) / xs.length) ** 2);
    expect(userEventTable(trial, "stddev").rows.find((r) => r.name === e.name)!.stddev).toBeCloseTo(popStd(own), 9);
  });

  it("gives equal samples no spread: TAU's sum of squares leaves rounding that the range of the samples bounds", () => {
    // 20 samples of 82745.11220379836: sumsqr/n − mean² is 1.24e-5 of rounding, printed as a
    // standard deviation of 0.003521. No spread exceeds half the range, max − min.
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const e = b.userEvent("bytes");
    const th = b.addThread(0);
    for (let k = 0; k < 20; k++) b.addEventSample(th, e, 82745.11220379836);
    const trial = b.build();
    expect(userEventTable(trial, "0,0,0").rows[0]!.stddev).toBe(0);
    expect(userEventTable(trial, "total").rows[0]!.stddev).toBe(0);
    expect(formatUserEventTable(userEventTable(trial, "0,0,0"))).toContain("  8.275E+04          0  bytes");
  });

  it("takes the spread across threads from deviations about the mean: large values that differ a little keep it", () => {
    // Thread k has the samples 0 and 2e10 + 2k: a mean of 1e10 + k and a standard deviation of
    // 1e10 + k. Across the 4 threads both spread by √1.25 (a sum of squares less n·mean² gave 0).
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const e = b.userEvent("bytes");
    for (let k = 0; k < 4; k++) {
      const th = b.addThread(k);
      b.addEventSample(th, e, 0);
      b.addEventSample(th, e, 2e10 + 2 * k);
    }
    const trial = b.build();
    expect(derivedEventView(trial, "stddev").mean[e]).toBeCloseTo(Math.sqrt(1.25), 6);
    expect(derivedEventView(trial, "stddev").count[e]).toBe(0);
    expect(userEventTable(trial, "stddev").rows[0]!.mean).toBeCloseTo(Math.sqrt(1.25), 6);
    expect(userEventTable(trial, "stddev").rows[0]!.stddev).toBeCloseTo(Math.sqrt(1.25), 3);
  });

  it("follows each timer table in profile show, and can be left out", async () => {
    let out = "";
    const code = await main(["profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "all"], { out: (s) => (out += s), err: () => {} });
    expect(code).toBe(0);
    expect(out.match(/USER EVENTS Profile :NODE \d+, CONTEXT 0, THREAD 0/g)?.length).toBe(readTrial(join(TAU, "hatchet-cpi-mpi")).threads.length);
    let without = "";
    await main(["profile", "show", join(TAU, "hatchet-cpi-mpi"), "--no-user-events"], { out: (s) => (without += s), err: () => {} });
    expect(without).not.toContain("USER EVENTS");
    let json = "";
    await main(["profile", "show", join(TAU, "hatchet-cpi-mpi"), "--json"], { out: (s) => (json += s), err: () => {} });
    expect(JSON.parse(json).userEventTables[0].rows.map((r: { name: string }) => r.name)).toEqual(["Message size for broadcast", "Message size for reduce"]);
  });
  it("leaves out of a thread's table the events it has no sample of, as pprof does", () => {
    // xgc.ppk's thread 4,0,1 (an OpenMP thread) lists 9 events, none sampled: pprof prints an
    // empty table for it; thread 0,0,0 sampled all 14 of its events.
    const trial = readTrial(join(PPK, "xgc.ppk"));
    const t = trial.threads.findIndex((th) => th.node === 4 && th.context === 0 && th.thread === 1);
    const n = trial.userEvents.length;
    const listed = trial.userEvents.filter((u) => trial.events.present[t * n + u.index] === 1);
    expect(listed.length).toBe(9);
    expect(listed.every((u) => trial.events.count[t * n + u.index] === 0)).toBe(true);
    expect(userEventTable(trial, "4,0,1").rows).toEqual([]);
    expect(userEventTable(trial, "4,0,1").listed).toBe(9);
    expect(formatUserEventTable(userEventTable(trial, "4,0,1"))).not.toContain("Message size");
    expect(userEventTable(trial, "0,0,0").rows.map((r) => r.samples)).toEqual([8, 8, 8, 8, 8, 8, 8, 8, 133, 2474, 364, 12, 36, 4]);
  });

  it("prints a thread's table that lists events but has no sample as pprof does: its heading alone", async () => {
    let out = "";
    await main(["profile", "show", join(PPK, "xgc.ppk"), "--thread", "4,0,1"], { out: (s) => (out += s), err: () => {} });
    const dash = "-".repeat(87);
    expect(out.endsWith(`\nUSER EVENTS Profile :NODE 4, CONTEXT 0, THREAD 1\n${dash}\nNumSamples   MaxValue   MinValue  MeanValue  Std. Dev.  Event Name\n${dash}\n${dash}\n`)).toBe(true);
    // A thread that lists none has no table.
    out = "";
    await main(["profile", "show", join(TAU, "hatchet-cpi-mpi"), "--thread", "0", "--no-user-events"], { out: (s) => (out += s), err: () => {} });
    expect(out).not.toContain("USER EVENTS");
  });

  it("pools every thread's samples in the mean view, and the help says how that differs from ParaProf's mean", async () => {
    const table = userEventTable(readTrial(join(PPK, "xgc.ppk")), "mean");
    const read = table.rows.find((r) => r.name === "MPI-IO Bytes Read")!;
    // 8 samples on 96 threads; the largest and smallest of all of them, not averages over threads.
    expect([read.samples, read.max, read.min]).toEqual([8 / 96, 852, 28]);
    let help = "";
    await main(["profile", "--help"], { out: (s) => (help += s), err: () => {} });
    expect(help.replace(/\s+/g, " ")).toContain("ParaProf's mean view averages each column over the threads instead (xgc.ppk's MPI-IO Bytes Read: a maximum of 8.875 there, 852 here)");
  });
});
