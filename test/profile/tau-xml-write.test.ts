import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { runCli } from "../cli/run-cli.js";
import { acrossThreads, derivedView, formatTauXmlProfile, parseTauXmlProfiles, ProfileModelError, readTrial, TrialBuilder, type Trial } from "../../index.js";
import { arbitraryTrial, trialDifference } from "./arbitrary.js";
import { TAU_XML } from "./data.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-xml-write-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MERGED = join(TAU_XML, "metadata-correlation.xml");

/** The trial a TAU XML text reads as. */
const back = (text: string, checkInvariants = true): Trial => parseTauXmlProfiles([{ path: "back.xml", text }], { checkInvariants });

/** The document of thread `id` (`1.0.0`) in a TAU XML text, up to its interval data, without its timestamp. */
function threadDocument(text: string, id: string): string {
  const from = text.indexOf(`<thread id="${id}.`);
  return text.slice(from, text.indexOf("</interval_data>", from)).replace(/<timestamp>\d+<\/timestamp>/, "<timestamp/>");
}

describe("TAU XML profiles written", () => {
  it("hold a TAU merged profile's timer definitions and threads as TAU wrote them", () => {
    const original = readFileSync(MERGED, "latin1").replace(/\0/g, "");
    const ours = formatTauXmlProfile(readTrial(MERGED));
    // The shared definitions: the metric and every timer, the same bytes up to the user events
    // (TAU's list repeats names the reader takes as one event).
    const upTo = (t: string) => t.slice(0, t.indexOf("<userevent "));
    expect(upTo(ours)).toBe(upTo(original));
    // Every rank but 0 (whose block TAU repeats with more attributes): its attributes that differ
    // from rank 0's, then its timers' rows, as TAU wrote them (the timestamp apart).
    for (let rank = 1; rank < 8; rank++) expect(threadDocument(ours, `${rank}.0.0`), `rank ${rank}`).toBe(threadDocument(original, `${rank}.0.0`));
  });

  it("read back as the trial they were written from, whatever format it came from", () => {
    for (const input of ["../shared/data/tau/hatchet-cpi-mpi", "../shared/data/tau/powercap/cap50_wrapped_am8", "../shared/data/tau/ppk/mpas.ppk", MERGED, join(TAU_XML, "class-breakdown.xml.gz"), "test/data/cube/kripke.p8.d2.g32.r1/profile.cubex"]) {
      const trial = readTrial(input, { records: false });
      expect(trialDifference(trial, back(formatTauXmlProfile(trial)), { records: false }), input).toBeUndefined();
    }
  });

  it("keep every thread's attributes; one that thread 0,0,0 has and another lacks reads back with 0,0,0's value, as TAU's own files", () => {
    // xgc.ppk: OpenMP threads 0,0,1.. lack rank 0's host name, timestamps, dropped-sample counts.
    const trial = readTrial("../shared/data/tau/ppk/xgc.ppk");
    const read = back(formatTauXmlProfile(trial));
    expect(trialDifference(trial, read, { records: false })).toMatch(/^metadata of thread 1: /);
    const zero = trial.threadMetadataMerged(0);
    trial.threads.forEach((_, th) => {
      const got = read.threadMetadataMerged(th);
      for (const [k, v] of trial.threadMetadataMerged(th)) expect(got.get(k), `${th} ${k}`).toBe(v);
      for (const [k, v] of got) if (!trial.threadMetadataMerged(th).has(k)) expect(v).toBe(zero.get(k));
    });
  });

  it("read back as any trial they were written from (property)", () => {
    fc.assert(
      fc.property(arbitraryTrial, (trial) => {
        // Readers refuse a blank name: so does the writer.
        if ([...trial.metrics, ...trial.timers.map((t) => t.name), ...trial.userEvents.map((u) => u.name)].some((n) => n.trim() === "")) {
          expect(() => formatTauXmlProfile(trial)).toThrow(/cannot be written in an XML profile: its readers refuse a blank name/);
          return;
        }
        const diff = trialDifference(trial, back(formatTauXmlProfile(trial), false), { records: false });
        if (diff !== undefined) throw new Error(diff);
      }),
      { numRuns: 60, seed: 20261129 },
    );
  });

  it("end with TAU's derived profiles: every timer's total, means, deviations, minimum and maximum, and each user event column's", () => {
    const trial = readTrial("../shared/data/tau/powercap/cap50_wrapped_lu8");
    const text = formatTauXmlProfile(trial);
    const rows = (entity: string, data: string): number[][] => {
      const m = new RegExp(`<derivedentity id="${entity}">\\n</derivedentity>\\n<(${entity}_)?derivedprofile derivedentity="${entity}">\\n(?:<derivedinterval_data[^>]*>\\n[^<]*</derivedinterval_data>\\n)?<derived${data}_data[^>]*>\\n([^<]*)</derived${data}_data>`).exec(text);
      expect(m, `${entity} ${data}`).not.toBeNull();
      return m![2].trim().split("\n").map((l) => l.trim().split(" ").map(Number));
    };
    const cases = [["total", "total", true], ["mean_all", "mean", true], ["mean_no_null", "mean", false], ["stddev_all", "stddev", true], ["stddev_no_null", "stddev", false], ["min_no_null", "min", false], ["max_no_null", "max", false]] as const;
    for (const [entity, kind, includeMissing] of cases) {
      const v = derivedView(trial, kind, { includeMissing });
      expect(rows(entity, "interval"), entity).toEqual(trial.timers.map((_, k) => [k, v.calls[k], v.subroutines[k], v.exclusive[0][k], v.inclusive[0][k]]));
      if (kind === "total") continue;
      // Each column its own statistic, as TAU's TauCollate.cpp: the mean of the ranks' maxima.
      const ev = trial.events;
      const col = (f: Float64Array) => acrossThreads(f, ev.present, trial.threads.length, trial.userEvents.length, kind, includeMissing);
      const [count, max, min, mean, sumSquares] = [ev.count, ev.max, ev.min, ev.mean, ev.sumSquares].map(col);
      expect(rows(entity, "atomic"), entity).toEqual(trial.userEvents.map((_, u) => [u, count[u], max[u], min[u], mean[u], sumSquares[u]]));
    }
    expect(text).toContain('<max_no_null_derivedprofile derivedentity="max_no_null">');
    expect(text.endsWith("</max_no_null_derivedprofile>\n\n</profile_xml>\n")).toBe(true);
  });

  it("write TAU's own derived timer rows of its merged profile, but for the minimum, where TAU's skips values of 0", () => {
    const original = readFileSync(MERGED, "latin1").replace(/\0/g, "");
    const ours = formatTauXmlProfile(readTrial(MERGED));
    const rows = (text: string, entity: string): number[][] => {
      const from = text.indexOf(`<derivedentity id="${entity}">`);
      const body = text.slice(text.indexOf("<derivedinterval_data", from), text.indexOf("</derivedinterval_data>", from));
      return body.split("\n").slice(1, -1).map((l) => l.trim().split(" ").map(Number));
    };
    for (const entity of ["total", "mean_all", "mean_no_null", "stddev_all", "stddev_no_null", "max_no_null"]) {
      const [a, b] = [rows(original, entity), rows(ours, entity)];
      expect(b.length, entity).toBe(a.length);
      b.forEach((r, i) => r.forEach((x, j) => expect(x, `${entity} row ${i} column ${j}`).toBeCloseTo(a[i]![j]!, 6)));
    }
    // TAU's minimum of a column of 0s (the subroutines of a timer calling none) is -1; this one's 0.
    const [a, b] = [rows(original, "min_no_null"), rows(ours, "min_no_null")];
    const differ = b.flatMap((r, i) => r.map((x, j) => [i, j, a[i]![j]!, x]).filter(([, , y, z]) => y !== z));
    expect(differ.length).toBeGreaterThan(0);
    expect(differ.every(([, j, y, z]) => j === 2 && y === -1 && z === 0)).toBe(true);
  });

  it("write TAU's own derived user-event rows of its merged profile, each column its own statistic", () => {
    const original = readFileSync(MERGED, "latin1").replace(/\0/g, "");
    const ours = formatTauXmlProfile(readTrial(MERGED));
    /** Per user event name (unique names only), the derived atomic row of `entity`. */
    const rows = (text: string, entity: string): Map<string, number[]> => {
      const defs = text.slice(text.indexOf('<definitions thread="*">'), text.indexOf("</definitions>"));
      const names = new Map<number, string>();
      for (const m of defs.matchAll(/<userevent id="(\d+)"><name>([^<]*)<\/name>/g)) names.set(Number(m[1]), m[2]!.replace(/^\[GROUP=[A-Z_]+\] /, "").trim());
      const from = text.indexOf(`<derivedentity id="${entity}">`);
      const body = text.slice(text.indexOf("<derivedatomic_data>", from) + 21, text.indexOf("</derivedatomic_data>", from));
      const out = new Map<string, number[]>();
      const count = new Map<string, number>();
      for (const name of names.values()) count.set(name, (count.get(name) ?? 0) + 1);
      for (const line of body.trim().split("\n")) {
        const [id, ...values] = line.trim().split(" ").map(Number);
        const name = names.get(id!)!;
        if (count.get(name) === 1) out.set(name, values);
      }
      return out;
    };
    for (const entity of ["mean_all", "mean_no_null", "max_no_null"]) {
      const [tau, ourRows] = [rows(original, entity), rows(ours, entity)];
      let compared = 0;
      for (const [name, values] of tau) {
        const mine = ourRows.get(name);
        if (mine === undefined) continue;
        // To TAU's 16 printed digits.
        values.forEach((v, k) => expect(Math.abs(mine[k]! - v), `${entity} ${name} column ${k}: ${mine[k]} vs ${v}`).toBeLessThanOrEqual(1e-14 * Math.abs(v)));
        compared++;
      }
      expect(compared, entity).toBeGreaterThan(100);
    }
  });

  it("write text as TAU's Tau_XML_writeString: markup in CDATA, else the five characters escaped", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    const th = b.addThread(0);
    b.setValues(th, b.timer("f<T>(a & b)", ["TAU_USER"]), { calls: 3, exclusive: 1.5, inclusive: 2.25 });
    b.setValues(th, b.timer(`say "it's" > x`, ["TAU_USER", "IO"]), { calls: 1, exclusive: 1e21, inclusive: 1e21 });
    const text = formatTauXmlProfile(b.build());
    expect(text).toContain('<event id="0"><name><![CDATA[f<T>(a & b)]]></name><group>TAU_USER</group></event>\n');
    expect(text).toContain('<event id="1"><name>say &quot;it&apos;s&quot; &gt; x</name><group>TAU_USER|IO</group></event>\n');
    expect(text).toContain('<interval_data metrics="0 ">\n0 3 0 1.5 2.25 \n1 1 0 1E+21 1E+21 \n</interval_data>\n');
    // The same trial gives the same text.
    expect(formatTauXmlProfile(b.build())).toBe(text);
  });

  it("refuses a name XML cannot hold, naming it", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.setValues(b.addThread(0), b.timer("bell\u0007", ["TAU_USER"]), { calls: 1, exclusive: 1, inclusive: 1 });
    expect(() => formatTauXmlProfile(b.build())).toThrow(ProfileModelError);
    expect(() => formatTauXmlProfile(b.build())).toThrow("timer 'bell\\u0007' holds a control character, which an XML profile cannot hold");
  });
});

describe("ccasim profile convert to TAU XML", () => {
  it("writes a .xml output (or --to tau-xml) that every command reads back", async () => {
    const out = join(scratch, "cpi.xml");
    const r = await runCli(["profile", "convert", "../shared/data/tau/hatchet-cpi-mpi", out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("(tau-xml)");
    expect(trialDifference(readTrial("../shared/data/tau/hatchet-cpi-mpi"), readTrial(out), { records: false })).toBeUndefined();
    const named = join(scratch, "cpi-profile");
    expect((await runCli(["profile", "convert", "../shared/data/tau/ppk/mpas.ppk", named, "--to", "tau-xml", "--metric", "TIME"])).code).toBe(0);
    expect(readTrial(named).metrics).toEqual(["TIME"]);
  });
});
