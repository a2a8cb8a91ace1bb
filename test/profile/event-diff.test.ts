import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli as run } from "../cli/run-cli.js";
import { diffUserEvents, formatUserEventDiff, readTrial, TrialBuilder, userEventTable, type Trial } from "../../index.js";

const CAP50 = join("../shared/data/tau/powercap", "cap50_wrapped_lu8");
const CAP115 = join("../shared/data/tau/powercap", "cap115_wrapped_lu8");
const CPI = "../shared/data/tau/hatchet-cpi-mpi";

/** One thread with a timer and the user events `samples` (name to its samples). */
function trial(samples: Record<string, number[]>): Trial {
  const b = new TrialBuilder({ metrics: ["TIME"] });
  const t = b.addThread(0);
  b.setValues(t, b.timer("main", ["TAU_USER"]), { calls: 1, exclusive: [1], inclusive: [1] });
  for (const [name, values] of Object.entries(samples)) {
    const e = b.userEvent(name);
    for (const v of values) b.addEventSample(t, e, v);
  }
  return b.build();
}

describe("diffUserEvents", () => {
  it("matches the user events of two real runs by name, each side's statistics its own view's", () => {
    const [a, b] = [readTrial(CAP50), readTrial(CAP115)];
    const d = diffUserEvents(a, b, "mean");
    const [ta, tb] = [userEventTable(a, "mean"), userEventTable(b, "mean")];
    expect(d.rows.map((r) => r.name)).toEqual(ta.rows.map((r) => r.name));
    for (const r of d.rows) {
      expect(r.base).toEqual(ta.rows.find((x) => x.name === r.name));
      expect(r.other).toEqual(tb.rows.find((x) => x.name === r.name));
      expect(r.meanChange).toBe(r.other!.mean - r.base!.mean);
      expect(r.samplesChange).toBe(r.other!.samples - r.base!.samples);
    }
    expect(d.rows.find((r) => r.name === "Message size for all-reduce")!.base!.samples).toBe(2001);
    expect([d.onlyInBase, d.onlyInOther]).toEqual([0, 0]);
  });

  it("compares two threads of one profile", () => {
    const t = readTrial(CPI);
    const d = diffUserEvents(t, t, "0,0,0", "1");
    expect(d.rows.map((r) => r.name)).toEqual(userEventTable(t, "0,0,0").rows.map((r) => r.name));
    expect(d.rows.every((r) => r.base !== undefined && r.other !== undefined)).toBe(true);
  });

  it("counts an event only one side has as new or gone, with no change of the mean", () => {
    const d = diffUserEvents(trial({ "Message size": [8, 24], "Heap": [100] }), trial({ "Message size": [8, 24, 64, 64], "Stack": [3] }), "0");
    expect(d.rows.map((r) => [r.name, r.samplesChange, r.meanChange])).toEqual([
      ["Heap", -1, NaN],
      ["Message size", 2, 24],
      ["Stack", 1, NaN],
    ]);
    expect([d.onlyInBase, d.onlyInOther]).toEqual([1, 1]);
    expect(formatUserEventDiff(d).split("\n")).toEqual([
      "USER EVENTS",
      "#Samples base  #Samples other  Mean base  Mean other  Mean change        %  Max base  Max other  Event Name",
      "-------------  --------------  ---------  ----------  -----------  -------  --------  ---------  ----------",
      "            1               -        100           -            -     gone       100          -  Heap",
      "            2               4         16          40          +24  +150.0%        24         64  Message size",
      "            -               1          -           3            -      new         -          3  Stack",
      "",
      "1 event only in the base (gone), 1 only in the other (new)",
      "",
    ]);
  });

  it("names what is new when nothing is gone", () => {
    const text = formatUserEventDiff(diffUserEvents(trial({ "Heap": [1] }), trial({ "Heap": [2], "Stack": [3], "Bytes": [4] }), "0"));
    expect(text.endsWith("\n\n2 events only in the other (new)\n")).toBe(true);
  });

  it("writes nothing when neither view has user events", () => {
    expect(formatUserEventDiff(diffUserEvents(trial({}), trial({}), "mean"))).toBe("");
  });
});

describe("ccasim profile diff's user events", () => {
  it("follow the timers, unless --no-user-events; in the JSON under userEvents", async () => {
    const r = await run(["profile", "diff", CAP50, CAP115, "--top", "1"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/\n\nUSER EVENTS\n#Samples base .*\n-+ .*\n( +\S+){8}  Message size for all-gather\n/);
    expect(r.out).toMatch(/\n +2001 +2001 +7\.996 +7\.996 +0 +\+0\.0% +8 +8  Message size for all-reduce\n/);
    const without = await run(["profile", "diff", CAP50, CAP115, "--top", "1", "--no-user-events"]);
    expect(without.out).toBe(r.out.slice(0, r.out.indexOf("\nUSER EVENTS")));
    const j = JSON.parse((await run(["profile", "diff", CAP50, CAP115, "--json"])).out) as { userEvents: { rows: { name: string; base: { samples: number } | null; meanChange: number | null }[]; onlyInBase: number } };
    expect(j.userEvents.rows.map((x) => x.name)).toEqual(["Message size for all-gather", "Message size for all-reduce", "Message size for broadcast", "Message size for reduce"]);
    expect(j.userEvents.rows[1].base!.samples).toBe(2001);
    const none = JSON.parse((await run(["profile", "diff", CAP50, CAP115, "--json", "--no-user-events"])).out) as { userEvents?: unknown };
    expect(none.userEvents).toBeUndefined();
  });
});
