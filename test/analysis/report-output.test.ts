import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultReportPath, readTrialInput, trialReport } from "../../analysis/report/index.js";
import { runCli } from "../cli/run-cli.js";
import { costLawStudy } from "./cost-law-study.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-report-output-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const DATA = "../shared/data/tau";

describe("where a report goes when no --out is given", () => {
  it("beside a study database, into a run folder, and otherwise into the current directory", () => {
    const db = join(scratch, "study.db");
    writeFileSync(db, "");
    expect(defaultReportPath(db)).toBe(join(scratch, "study.html"));
    const run = join(scratch, "run");
    mkdirSync(join(run, "profile"), { recursive: true });
    writeFileSync(join(run, "summary.json"), JSON.stringify({ ccasim: "run summary" }));
    writeFileSync(join(run, "records.csv"), "");
    expect(defaultReportPath(run)).toBe(join(run, "report.html"));
    // A run's profile alone: named after the run, here; not the run's fuller report, nor one more profile.html.
    expect(defaultReportPath(join(run, "profile"))).toBe("run-profile.html");
    expect(defaultReportPath(join(run, "profile") + "/")).toBe("run-profile.html");
    // Measurement data stays as it is: the report is named after it, in the current directory.
    expect(defaultReportPath(join(DATA, "hatchet-cpi-mpi"))).toBe("hatchet-cpi-mpi.html");
    expect(defaultReportPath(join(DATA, "hatchet-cpi-mpi") + "/")).toBe("hatchet-cpi-mpi.html");
    expect(defaultReportPath(join(DATA, "ppk", "wrf-callpath.ppk"))).toBe("wrf-callpath.html");
    // A TAU profile file is named whole (its name has no extension to drop).
    expect(defaultReportPath(join(DATA, "hatchet-cpi-mpi", "profile.0.0.0"))).toBe("profile.0.0.0.html");
    // A summary.json that no run wrote does not make a run's folder.
    const other = join(scratch, "other");
    mkdirSync(join(other, "profile"), { recursive: true });
    writeFileSync(join(other, "summary.json"), "{}\n");
    expect(defaultReportPath(other)).toBe("other.html");
    expect(defaultReportPath(join(other, "profile"))).toBe("profile.html");
    const records = join(scratch, "records.csv");
    writeFileSync(records, "");
    expect(defaultReportPath(records)).toBe("records.html");
  });

  it("is an HTML page: an output named for another format is refused", async () => {
    const r = await runCli(["report", join(DATA, "hatchet-cpi-mpi"), "--out", join(scratch, "x.pdf")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ccasim report: cannot write the report '${join(scratch, "x.pdf")}': the report is an HTML page; name it .html (a browser prints it to PDF)\n`);
    expect(existsSync(join(scratch, "x.pdf"))).toBe(false);
  });

  it("names an output it cannot write, as an input error, and writes nothing", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "x\n");
    const r = await runCli(["report", join(DATA, "hatchet-cpi-mpi"), "--out", join(file, "report.html")]);
    expect(r.code).toBe(2);
    // Before the report is built: the folder it goes into is a file.
    expect(r.err).toBe(`ccasim report: cannot write the report '${join(file, "report.html")}': its parent ${file} is a file, not a folder\n`);
    expect(r.out).toBe("");
    const empty = await runCli(["report", join(DATA, "hatchet-cpi-mpi"), "--out", ""]);
    expect([empty.code, empty.err]).toEqual([2, "ccasim report: cannot write the report '': the path is empty; give the path to write\n"]);
  });
});

describe("a study database named without .db", () => {
  it("is reported as a study, as 'sweep --db' writes it under any name, with the report beside it", async () => {
    const db = await costLawStudy(scratch, "named");
    const plain = join(scratch, "named-study");
    copyFileSync(db, plain);
    expect(defaultReportPath(plain)).toBe(`${plain}.html`);
    const r = await runCli(["report", plain]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toMatch(/^wrote .*named-study\.html \(\d+ charts, 3 sections\) from named-study\n$/);
    expect(readFileSync(`${plain}.html`, "utf8")).toContain("ccasim study report: named");
  });
});

describe("a profile's report", () => {
  it("counts timers and callpaths apart, as profile show does", () => {
    const rows = (path: string) => Object.fromEntries(trialReport(readTrialInput(path)).sections[0]!.tables![0]!.rows.map((r) => [r[0], r[1]]));
    // wrf-callpath.ppk: 1139 timers and 1834 depth-2 callpaths (2973 names in all).
    expect(rows(join(DATA, "ppk", "wrf-callpath.ppk"))).toMatchObject({ threads: 16, timers: 1139, callpaths: 1834 });
    const flat = rows(join(DATA, "ppk", "gromacs-scaling", "2.ppk"));
    expect([flat.timers, "callpaths" in flat]).toEqual([598, false]);
  });
});
