import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { formatRecordsCsv, formatRecordsJsonl, parseRecordsCsv, parseRecordsJsonl, ProfileFormatError, readRecords, readTrial, recordTable, Trial, TrialBuilder, writeRecordsCsv, writeRecordsJsonl, writeTauProfile, type InvocationRecord } from "../../index.js";
import { arbitraryTrial, trialDifference } from "./arbitrary.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-records-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const rec = (over: Partial<InvocationRecord> = {}): InvocationRecord => ({
  component: "StatesConstructor",
  port: "States",
  method: "compute",
  rank: 2,
  parameters: { Q: 4096, mode: "strided" },
  start: 1500.5,
  wallTime: 820,
  mpiTime: 0,
  computeTime: 820,
  counters: { PAPI_FP_INS: 123456, PAPI_L1_DCM: 789 },
  ...over,
});

describe("per-invocation records", () => {
  it("writes CSV with a header naming every column and its unit", () => {
    const csv = formatRecordsCsv([rec(), rec({ rank: 0, parameters: { Q: 8 }, counters: {} })]);
    expect(csv).toBe(
      [
        "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q,param:mode,counter:PAPI_FP_INS [count],counter:PAPI_L1_DCM [count]",
        "StatesConstructor,States,compute,2,1500.5,820,0,820,4096,strided,123456,789",
        "StatesConstructor,States,compute,0,1500.5,820,0,820,8,,,",
        "",
      ].join("\n"),
    );
  });

  it("writes JSON Lines with the same keys and omits absent parameters", () => {
    const lines = formatRecordsJsonl([rec({ parameters: { Q: 8 }, counters: {} })]).trim().split("\n");
    expect(JSON.parse(lines[0])).toEqual({
      component: "StatesConstructor",
      port: "States",
      method: "compute",
      rank: 2,
      "start [us]": 1500.5,
      "wall_time [us]": 820,
      "mpi_time [us]": 0,
      "compute_time [us]": 820,
      "param:Q": 8,
    });
  });

  it("round-trips through CSV and JSON Lines files, quotes and commas included", () => {
    const rs = [rec({ component: 'a,"b"\nc', parameters: { "odd,key": "x y", empty: "" } }), rec()];
    writeRecordsCsv(rs, join(scratch, "r.csv"));
    writeRecordsJsonl(rs, join(scratch, "r.jsonl"));
    const norm = (x: InvocationRecord[]) => x.map((r) => ({ ...r, parameters: Object.fromEntries(Object.entries(r.parameters).sort()) }));
    expect(norm(readRecords(join(scratch, "r.csv")))).toEqual(norm(rs));
    expect(norm(readRecords(join(scratch, "r.jsonl")))).toEqual(norm(rs));
  });

  it("round-trips random records inside a written trial directory", () => {
    fc.assert(
      fc.property(arbitraryTrial, fc.boolean(), (trial, jsonl) => {
        const dir = join(scratch, `t${Math.random().toString(36).slice(2)}`);
        writeTauProfile(trial, dir, { records: jsonl ? "jsonl" : "csv" });
        const diff = trialDifference(trial, readTrial(dir));
        rmSync(dir, { recursive: true, force: true });
        expect(diff).toBeUndefined();
      }),
      { numRuns: 30, seed: 99 },
    );
  });

  it("names file and line of a bad row", () => {
    const header = formatRecordsCsv([rec()]).split("\n")[0];
    const bad = `${header}\nS,P,m,1,0,5,0,5,3,x,1,2\nS,P,m,1,zero,5,0,5,3,x,1,2\n`;
    expect(() => parseRecordsCsv(bad, "r.csv")).toThrow(ProfileFormatError);
    expect(() => parseRecordsCsv(bad, "r.csv")).toThrow(/r\.csv:3: 'start \[us\]' must be a finite number/);
    expect(() => parseRecordsCsv("component,port\n", "r.csv")).toThrow(/r\.csv:1: missing column 'method'/);
    expect(() => parseRecordsCsv(`${header}\nS,P\n`, "r.csv")).toThrow(/r\.csv:2: 2 cells for 12 columns/);
    expect(() => parseRecordsJsonl('{"component":"S"}\n{', "r.jsonl")).toThrow(/r\.jsonl:1: missing key 'port'|r\.jsonl:2: invalid JSON/);
    expect(() => parseRecordsJsonl(formatRecordsJsonl([rec()]) + "[1]\n", "r.jsonl")).toThrow(/r\.jsonl:2: expected a JSON object/);
  });

  it("reads a CSV written by hand with CRLF line ends", () => {
    const header = formatRecordsCsv([rec({ parameters: {}, counters: {} })]).split("\n")[0];
    const p = join(scratch, "hand.csv");
    writeFileSync(p, `${header}\r\nA,B,c,0,0,1,0,1\r\n`);
    expect(readRecords(p)).toEqual([{ component: "A", port: "B", method: "c", rank: 0, parameters: {}, start: 0, wallTime: 1, mpiTime: 0, computeTime: 1, counters: {} }]);
  });

  it("keeps records on a built trial", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    b.addRecord(rec());
    expect(b.build().records).toEqual([rec()]);
    expect(() => b.addRecord(rec({ wallTime: NaN }))).toThrow(/finite/);
  });

  it("keeps a record table as the trial's records, makes their objects on first read, and carries them through a spread", () => {
    const rs = [rec(), rec({ rank: 0, parameters: { Q: 8 }, counters: {} })];
    const table = recordTable(rs);
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    b.addRecords(table);
    const trial = b.build();
    expect(trial.recordTable).toBe(table);
    expect(trial.records).toEqual(rs);
    expect(trial.records).toBe(trial.records);
    expect(new Trial({ ...trial }).records).toEqual(rs);
  });

  it("appends records given as objects and as tables in the order given", () => {
    const r = (rank: number) => rec({ rank });
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    b.addRecords(recordTable([r(0), r(1)]));
    b.addRecord(r(2));
    b.addRecords(recordTable([r(3)]));
    b.addRecords([r(4)]);
    expect(b.build().records.map((x) => x.rank)).toEqual([0, 1, 2, 3, 4]);
  });

  it("refuses records with a non-finite time and adds none of them", () => {
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.addThread(0);
    expect(() => b.addRecords(recordTable([rec(), rec({ start: Infinity })]))).toThrow(/record start must be a finite number/);
    expect(() => b.addRecords([rec(), rec({ mpiTime: NaN })])).toThrow(/record mpiTime must be a finite number/);
    expect(b.build().records).toEqual([]);
  });
});
