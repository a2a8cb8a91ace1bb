import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runCli } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ccasim power on a profile with a time but no clock", () => {
  it("names --cpu-mhz when the cycles cannot be derived from the time, and estimates with it", async () => {
    // Score-P's CUBE4 records TIME and PAPI_TOT_INS, no cycle counter and no "CPU MHz".
    const cube = "test/data/cube/kripke.p8.d2.g32.r1/profile.cubex";
    const r = await runCli(["power", cube]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`core: no cycle count (CPU_CYCLES|PAPI_TOT_CYC, or a time metric with CPU MHz); `);
    expect(r.err).toMatch(/; the trial has a time \(TIME\) but no cycle counter and no "CPU MHz" metadata to derive the cycles from it: give the clock with --cpu-mhz <MHz>\n$/);
    const clocked = await runCli(["power", cube, "--cpu-mhz", "2400", "--top", "1"]);
    expect(clocked.code).toBe(0);
    expect(clocked.out).toContain("cycles from TIME × CPU MHz; time from TIME; CPU 2400 MHz");
    // A trial whose metadata gives the clock (and that lacks the access counters) is not sent to --cpu-mhz.
    const clockKnown = await runCli(["power", "../shared/data/tau/hatchet-cpi-mpi"]);
    expect(clockKnown.code).toBe(2);
    expect(clockKnown.err).not.toContain("--cpu-mhz");
  });
});

describe("ccasim power on a simulated Itanium 2 run", () => {
  it("names the events whose estimate exceeds MaxPower, and no others", async () => {
    const out = join(dir, "shock-madison");
    expect((await runCli(["run", "scenarios/shock-madison.yaml", "--quiet", "--out", out])).code).toBe(0);
    const r = await runCli(["power", out, "--exclusive", "--json"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { events: { event: string; power: { watts: number; aboveMaxPower: boolean; basis: { cycles: number } } }[]; aboveMaxPower: string[] };
    const above = json.events.filter((e) => e.power.watts > 122);
    const estimated = json.events.filter((e) => e.power.basis.cycles !== 0);
    // The halo copies retire about 3 instructions and 0.1 L3 references per cycle: about 129 W.
    expect(above.map((e) => e.event)).toContain("AMRMesh::ghostUpdate()");
    expect(json.aboveMaxPower).toEqual(above.map((e) => `${e.event} (mean)`));
    const table = await runCli(["power", out, "--exclusive"]);
    // Out of the estimates (the table's rows), not of the events that spent no cycles too.
    expect(table.out).toContain(`\n${above.length} of the ${estimated.length} estimates above MaxPower (122 W, the thermal design power)`);
    expect(table.out).toContain("AMRMesh::ghostUpdate() (mean)");
  });

  it("warns that --cpu-mhz changes nothing when every event measured its cycles and its time", async () => {
    const out = join(dir, "shock-madison");
    const r = await runCli(["power", out, "--cpu-mhz", "800", "--top", "1"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("warning: --cpu-mhz 800 is not used: every event has its cycles and its time measured, which give 1600 MHz");
    expect((await runCli(["power", out, "--top", "1"])).out).not.toContain("--cpu-mhz");
  });

  it("gives the reason an event spent no cycles that fits the values read: a caller's own time only with --exclusive", async () => {
    const out = join(dir, "shock-madison");
    const inclusive = (await runCli(["power", out, "--top", "1"])).out;
    expect(inclusive).toMatch(/\d+ events? spent no cycles, so there is no power to estimate \(a call too short to count\):/);
    expect(inclusive).not.toContain("--exclusive");
    const exclusive = (await runCli(["power", out, "--top", "1", "--exclusive"])).out;
    expect(exclusive).toMatch(/spent no cycles, so there is no power to estimate \(no time of (its|their) own: a routine that only calls others, or a call too short to count\):/);
  });

  it("says %FLPStalls is 0 for events that retired nothing only where the stall counters give it", async () => {
    const out = join(dir, "shock-madison");
    expect((await runCli(["power", out, "--top", "1"])).out).toContain("retired no instruction: their power is the idle power (in a simulated run, time blocked in MPI or outside kernels); %FLPStalls 0 and no FLPIneffI");
    const cut = join(dir, "shock-madison-no-stalls");
    mkdirSync(cut);
    for (const m of ["TIME", "CPU_CYCLES", "IA64_INST_RETIRED", "L2_REFERENCES"]) cpSync(join(out, "profile", `MULTI__${m}`), join(cut, `MULTI__${m}`), { recursive: true });
    const r = await runCli(["power", cut, "--top", "1"]);
    expect(r.out).toContain("(in a simulated run, time blocked in MPI or outside kernels); no FLPIneffI, left out");
    expect(r.out).not.toContain("%FLPStalls 0");
  });

  it("notes the events that retired no instruction, and flags memory-stall ratios above 1", async () => {
    const out = join(dir, "shock-madison");
    const json = JSON.parse((await runCli(["power", out, "--json"])).out) as { events: { event: string; metrics: { memoryStallRatio?: number; memoryStallsAboveCycles: boolean } }[]; noInstructions: string[]; memoryStallsAboveCycles: string[] };
    // A blocked rank's cycles are all stall cycles: the MPI waits retire nothing.
    expect(json.noInstructions).toEqual(expect.arrayContaining(["MPI_Waitsome() (mean)", "MPI_Allreduce() (mean)"]));
    const above = json.events.filter((e) => e.metrics.memoryStallRatio !== undefined && e.metrics.memoryStallRatio > 1);
    expect(above.length).toBeGreaterThan(0);
    expect(above.every((e) => e.metrics.memoryStallsAboveCycles)).toBe(true);
    expect(json.memoryStallsAboveCycles).toEqual(above.map((e) => `${e.event} (mean)`));
    const table = (await runCli(["power", out, "--top", "30"])).out;
    expect(table).toContain(`${json.noInstructions.length} events retired no instruction: their power is the idle power (in a simulated run, time blocked in MPI or outside kernels)`);
    const lines = table.split("\n");
    const after = lines.slice(lines.findIndex((l) => /^-+  /.test(l)) + 1);
    const tableRows = after.slice(0, after.indexOf(""));
    expect(table).toContain(`* ${above.length} of the ${tableRows.length} rows above have memory-stall ratios above 1: the model's estimate exceeds the cycles it explains`);
    const line = table.split("\n").find((l) => l.startsWith(above[0]!.event))!;
    expect(line).toMatch(/\*$/);
  });

  it("counts the marked memory-stall ratios among the rows it shows, and all of them when --top leaves some out", async () => {
    const out = join(dir, "shock-madison");
    const json = JSON.parse((await runCli(["power", out, "--json"])).out) as { memoryStallsAboveCycles: string[]; events: { power: { basis: { cycles: number } } }[] };
    const estimated = json.events.filter((e) => e.power.basis.cycles !== 0).length;
    const table = (await runCli(["power", out, "--top", "3"])).out;
    const marked = table.split("\n").filter((l) => /\*$/.test(l));
    expect(marked.length).toBeLessThanOrEqual(3);
    expect(table).toContain(
      `* ${marked.length} of the 3 rows above ${marked.length === 1 ? "has a memory-stall ratio" : "have memory-stall ratios"} above 1 (${json.memoryStallsAboveCycles.length} of all ${estimated} rows, with those --top leaves out): `,
    );
  });

  it("prints FLOP/J in millions with the other columns' 4 significant digits", async () => {
    const out = join(dir, "shock-madison");
    type Row = { event: string; power: { flopsPerJoule: number } };
    const events = (JSON.parse((await runCli(["power", out, "--json"])).out) as { events: Row[] }).events;
    const table = (await runCli(["power", out, "--name-width", "0"])).out;
    expect(table).toMatch(/ MFLOP\/J /);
    const flopsy = events.find((e) => e.event === "StatesConstructor::compute()")!;
    const mflops = flopsy.power.flopsPerJoule * 1e-6;
    expect(mflops).toBeGreaterThan(1);
    const line = table.split("\n").find((l) => l.startsWith("StatesConstructor::compute()"))!;
    expect(line.split(/\s+/)).toContain(String(Number(mflops.toPrecision(4))));
  });

  it("says in --help that the table's %FLPStalls is in per cent and --json's a fraction, and names the --json fields it has", async () => {
    const help = (await runCli(["power", "--help"])).out.replace(/\s+/g, " ");
    expect(help).toContain("%FLPStalls = floating-point stall cycles / cycles, which the table prints in per cent (33.33) and --json as the fraction (flpStalls 0.3333)");
    expect(help).toContain("GlobalStalls = stall cycles / cycles, a fraction");
    const out = join(dir, "shock-madison");
    type Row = {
      event: string;
      power: { watts: number; idleWatts: number; joules: number; flopsPerJoule: number; components: { accessRate: number; watts: number }[]; basis: { cycles: number; timeUs: number } };
      metrics: { globalStalls: number; flpStalls: number; flpIneffI: number; flpIneffD: number; memoryStalls: number };
    };
    const json = JSON.parse((await runCli(["power", out, "--json"])).out) as { events: Row[]; noCycles: string[] };
    const row = json.events.find((e) => e.event === "StatesConstructor::compute()")!;
    // Every field the help names is there, with the unit it gives.
    for (const v of [row.power.watts, row.power.idleWatts, row.power.joules, row.power.flopsPerJoule, row.power.components[0]!.accessRate, row.power.basis.timeUs, row.metrics.flpIneffD, row.metrics.memoryStalls]) expect(Number.isFinite(v)).toBe(true);
    expect(row.power.joules).toBeCloseTo(row.power.watts * row.power.basis.timeUs * 1e-6, 9);
    expect(row.metrics.flpStalls).toBeGreaterThan(0);
    expect(row.metrics.flpStalls).toBeLessThan(1);
    expect(json.noCycles.length).toBeGreaterThan(0);
    // The table's %FLPStalls is 100 times the fraction; its GlobalStalls the fraction itself.
    const table = (await runCli(["power", out, "--name-width", "0"])).out;
    const cells = table.split("\n").find((l) => l.startsWith("StatesConstructor::compute()"))!.split(/\s+/);
    const header = table.split("\n").find((l) => l.startsWith("event "))!;
    expect(header).toMatch(/GlobalStalls +%FLPStalls +FLPIneffI/);
    expect(cells).toContain(String(Number((100 * row.metrics.flpStalls).toPrecision(4))));
    expect(cells).toContain(String(Number(row.metrics.globalStalls.toPrecision(4))));
  });
});

describe("ccasim power's constant sets", () => {
  it("lists the sets and shows every constant of one", async () => {
    const list = await runCli(["power", "--list-constants"]);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(/\nitanium2-madison +Itanium +122 +97\.66 +Intel Itanium 2 Madison/);
    const show = await runCli(["power", "--show-constants", "itanium2-madison"]);
    expect(show.code, show.err).toBe(0);
    expect(show.out).toContain("MaxPower:    122 W (thermal design power)\nidle power:  97.66 W\n");
    expect(show.out).toMatch(/\nL3 +0\.935 +L3_REFERENCES, PAPI_L3_TCA\n/);
    expect(show.out).toContain("latencies (cycles): l1 1, l2 2, l3 10, local 127, remote 232, tlb 30\n");
    expect(show.out).toMatch(/\nflpStallTerms +BE_EXE_BUBBLE_FRALL, BE_L1D_FPU_BUBBLE_FPU\n/);
    expect(show.out).toContain("source:      Intel Itanium 2 Madison 9M");
    const typo = await runCli(["power", "--show-constants", "itanium2-madisn"]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("did you mean 'itanium2-madison'?");
    const withTrial = await runCli(["power", "--list-constants", "../shared/data/tau/ppk/xgc-nosamples.ppk"]);
    expect(withTrial.code).toBe(2);
    expect(withTrial.err).toContain("--list-constants prints constants and reads no trial");
  });

  it("prints the sets as JSON in the constant file format, which reads back as a constants file", async () => {
    const shown = await runCli(["power", "--show-constants", "itanium2-madison", "--json"]);
    expect(shown.code, shown.err).toBe(0);
    const set = JSON.parse(shown.out) as { name: string; maxPower: number; components: { name: string }[]; latencies: Record<string, number> };
    expect([set.name, set.maxPower, set.components.map((c) => c.name), set.latencies.local]).toEqual(["itanium2-madison", 122, ["core", "L1", "L2", "L3"], 127]);
    const list = await runCli(["power", "--list-constants", "--json"]);
    expect((JSON.parse(list.out) as { name: string }[]).map((x) => x.name)).toContain("itanium2-madison");
    // Renamed and loaded: the same set under its new name.
    const file = join(dir, "copy.json");
    writeFileSync(file, JSON.stringify({ ...set, name: "my-madison" }));
    const back = await runCli(["power", "--constants-file", file, "--show-constants", "my-madison", "--json"]);
    expect(back.code, back.err).toBe(0);
    expect(JSON.parse(back.out)).toEqual({ ...set, name: "my-madison" });
    // Options that shape the estimate's table still do not apply.
    expect((await runCli(["power", "--list-constants", "--json", "--top", "3"])).err).toContain("--top does not apply");
  });

  it("uses the one set of a constants file unless --constants names another", async () => {
    const file = join(dir, "xeon.yaml");
    writeFileSync(file, "name: test-xeon\nsummary: test constants\nprocessors: [Xeon]\nmaxPower: 95\nidlePower: 40\ncomponents:\n  - { name: core, scaling: 0.05, accessCounters: [PAPI_TOT_INS] }\n");
    const r = await runCli(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--constants-file", file, "--top", "1"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^constants test-xeon: MaxPower 95 W, idle 40 W/);
    expect(r.out).not.toContain("warning:");
    const named = await runCli(["power", "../shared/data/tau/ppk/xgc-nosamples.ppk", "--constants-file", file, "--constants", "itanium2-madison", "--top", "1"]);
    expect(named.out).toMatch(/^constants itanium2-madison:/);
    expect((await runCli(["power", "--help"])).out).toContain("  maxPower: 95                      # watts (thermal design power), above 0, required");
  });
});

describe("ccasim power --thread total", () => {
  it("sums the threads' power and energy, as paper 004 totals power across processing elements", async () => {
    const ppk = "../shared/data/tau/ppk/xgc-nosamples.ppk";
    type Row = { event: string; view: string; power: { watts: number; joules: number; basis: { timeUs: number } } };
    const each = JSON.parse((await runCli(["power", ppk, "--exclusive", "--thread", "each", "--json"])).out).events as Row[];
    const total = JSON.parse((await runCli(["power", ppk, "--exclusive", "--thread", "total", "--json"])).out).events as Row[];
    const main = total.find((e) => e.event.startsWith("XGC2"))!;
    const threads = each.filter((e) => e.event === main.event);
    expect(threads.length).toBe(16);
    expect(main.power.watts).toBeCloseTo(threads.reduce((a, e) => a + e.power.watts, 0), 6);
    expect(main.power.joules).toBeCloseTo(threads.reduce((a, e) => a + e.power.joules, 0), 3);
    // Time from cycles: the total's at the trial's mean clock, each thread's at its own.
    expect(main.power.basis.timeUs / threads.reduce((a, e) => a + e.power.basis.timeUs, 0)).toBeCloseTo(1, 5);
    const table = await runCli(["power", ppk, "--exclusive", "--thread", "total"]);
    expect(table.out).toContain("power (W, Σ threads)");
    expect(table.out).toContain("total over threads: power is the sum of each thread's power");
  });
});

describe("ccasim power --thread max", () => {
  it("gives each event's thread of largest power, not the model on each counter's maximum", async () => {
    const ppk = "../shared/data/tau/ppk/xgc-nosamples.ppk";
    type Row = { event: string; view: string; thread?: string; power: { watts: number | null; joules: number | null }; inclusiveTimeUs: number | null };
    const each = JSON.parse((await runCli(["power", ppk, "--exclusive", "--thread", "each", "--json"])).out).events as Row[];
    const max = JSON.parse((await runCli(["power", ppk, "--exclusive", "--thread", "max", "--json"])).out).events as Row[];
    expect(max.length).toBe(new Set(each.map((e) => e.event)).size);
    for (const m of max) {
      const threads = each.filter((e) => e.event === m.event && e.power.watts !== null);
      if (threads.length === 0) continue;
      const peak = threads.reduce((a, e) => (e.power.watts! > a.power.watts! ? e : a));
      // The whole row is the peak thread's: its power, energy and time.
      expect([m.view, m.thread, m.power, m.inclusiveTimeUs], m.event).toEqual(["max", peak.view, peak.power, peak.inclusiveTimeUs]);
    }
    // The model on each counter's maximum (from different threads) gave 99.996 W here.
    const gather = max.find((e) => e.event.startsWith("GATHER_FIELD_INFO"))!;
    expect(gather.power.watts).toBeCloseTo(101.27, 2);
    const table = await runCli(["power", ppk, "--exclusive", "--thread", "max", "--top", "3"]);
    expect(table.out).toContain("max over threads: each event's row is the estimate of its thread of largest power");
    expect(table.out).toMatch(/\nMPI_Init\(\) +10,0,0 +/);
  });
});

describe("ccasim power on the runs of a metric set split for a limited PMU", () => {
  it("gives, from the runs' MULTI__ folders put together, the estimates of one run recording them all", async () => {
    const short = ["--quiet", "--set", "workload.steps=1", "--set", "workload.regridInterval=1"];
    const full = join(dir, "split-full");
    expect((await runCli(["run", "scenarios/shock-madison.yaml", ...short, "--set", "metrics=[TIME,CPU_CYCLES,IA64_INST_RETIRED,FP_OPS_RETIRED,PAPI_L1_TCA,L2_REFERENCES,L3_REFERENCES]", "--out", full])).code).toBe(0);
    const pmu = ["--set", "machine.counters.pmuCounters=4"];
    const limited = await runCli(["run", "scenarios/shock-madison.yaml", ...short, ...pmu, "--set", "metrics=[TIME,CPU_CYCLES,IA64_INST_RETIRED,PAPI_L1_TCA,L2_REFERENCES]", "--out", join(dir, "split-refused")]);
    expect(limited.code).toBe(2);
    expect(limited.err).toContain("split them over several runs of the same seed, whose times and counts do not depend on the metrics recorded");
    const a = join(dir, "split-a");
    const b = join(dir, "split-b");
    expect((await runCli(["run", "scenarios/shock-madison.yaml", ...short, ...pmu, "--set", "metrics=[TIME,CPU_CYCLES,IA64_INST_RETIRED,L2_REFERENCES,L3_REFERENCES]", "--out", a])).code).toBe(0);
    expect((await runCli(["run", "scenarios/shock-madison.yaml", ...short, ...pmu, "--set", "metrics=[TIME,CPU_CYCLES,PAPI_L1_TCA,FP_OPS_RETIRED]", "--out", b])).code).toBe(0);
    const together = join(dir, "split-together");
    mkdirSync(together);
    for (const m of ["TIME", "CPU_CYCLES", "IA64_INST_RETIRED", "L2_REFERENCES", "L3_REFERENCES"]) cpSync(join(a, "profile", `MULTI__${m}`), join(together, `MULTI__${m}`), { recursive: true });
    for (const m of ["PAPI_L1_TCA", "FP_OPS_RETIRED"]) cpSync(join(b, "profile", `MULTI__${m}`), join(together, `MULTI__${m}`), { recursive: true });
    const one = await runCli(["power", full, "--exclusive", "--json"]);
    const merged = await runCli(["power", together, "--exclusive", "--json"]);
    expect(merged.code).toBe(0);
    type Rows = { events: { event: string; power: { watts: number; joules: number; flopsPerJoule: number | null; complete: boolean } }[] };
    const rows = (text: string) => (JSON.parse(text) as Rows).events.map((e) => [e.event, e.power.watts, e.power.joules, e.power.flopsPerJoule, e.power.complete]);
    expect(rows(merged.out)).toEqual(rows(one.out));
    expect((JSON.parse(merged.out) as Rows).events.some((e) => e.power.complete)).toBe(true);
  }, 60_000);
});

describe("ccasim power --sort name", () => {
  it("sorts events by name in the same order whatever the locale of the process", async () => {
    const run = join(dir, "by-name");
    expect((await runCli(["run", "scenarios/shock-madison.yaml", "--quiet", "--set", "workload.steps=1", "--out", run])).code).toBe(0);
    // Two components renamed y and z: Estonian sorts z before y.
    for (const m of readdirSync(join(run, "profile"))) {
      for (const f of readdirSync(join(run, "profile", m))) {
        const file = join(run, "profile", m, f);
        writeFileSync(file, readFileSync(file, "utf8").replaceAll("EFMFlux::compute()", "y::compute()").replaceAll("Inviscid::compute()", "z::compute()"));
      }
    }
    const names = (out: string) => out.split("\n").filter((l) => /^[yz]::compute\(\)/.test(l)).map((l) => l.split(" ")[0]);
    const plain = await runCli(["power", run, "--sort", "name"]);
    expect(names(plain.out)).toEqual(["y::compute()", "z::compute()"]);
    // Comparing as the process's default collation does under LANG=et_EE.UTF-8.
    const estonian = new Intl.Collator("et");
    vi.spyOn(String.prototype, "localeCompare").mockImplementation(function (this: string, that: string) {
      return estonian.compare(String(this), that);
    });
    try {
      expect((await runCli(["power", run, "--sort", "name"])).out).toBe(plain.out);
    } finally {
      vi.restoreAllMocks();
    }
  }, 60_000);
});
