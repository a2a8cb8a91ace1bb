import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { forEachRecord, formatPackedProfile, formatTauProfile, readCubeProfile, readPackedProfile, readTauProfile, readTauXmlProfile, TrialBuilder, writeRecordFiles, writeRecordsCsv, writeRecordsJsonl, writeTauProfile, type InvocationRecord, type Trial } from "../profile/index.js";
import { printTable, timeBest, type Benchmark } from "./registry.js";

/** `../shared/data` from the project root (the bench runs from dist/bench). */
function dataDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, "..", "shared", "data");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return join(process.cwd(), "..", "shared", "data");
}

/** `test/data` of the project (the real TAU XML and CUBE4 fixtures), from dist/bench or the root. */
function testDataDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, "test", "data");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return join(process.cwd(), "test", "data");
}

/** Read times of the TAU XML and CUBE4 fixtures, against inflating and splitting the same bytes. */
function xmlAndCubeTable(): void {
  const data = testDataDir();
  const xml = join(data, "tau-xml", "class-breakdown.xml.gz");
  const cube = join(data, "cube", "time.p4.n2000.x1.r0", "profile.cubex");
  if (!existsSync(xml) || !existsSync(cube)) {
    console.log(`\n(test/data not found at ${data}; skipping the TAU XML and CUBE4 measurements)`);
    return;
  }
  const raw = readFileSync(xml);
  const inflated = gunzipSync(raw).length / 1e6;
  let t: Trial | undefined;
  const tXml = timeBest(() => (t = readTauXmlProfile(xml)), 5);
  const tBase = timeBest(() => gunzipSync(readFileSync(xml)).toString("utf8").split("\n"), 5);
  const xmlShape = `${t!.threads.length} threads x ${t!.timers.length} timers`;
  const tCube = timeBest(() => (t = readCubeProfile(cube)), 5);
  // Rows: thread x timer entries of the trial (a call node adds to its callpath and flat timer).
  const rows = t!.threads.length * t!.timers.length;
  console.log(`\nTAU XML: class-breakdown.xml.gz (${xmlShape}, ${inflated.toFixed(2)} MB inflated); CUBE4: time.p4 (${t!.threads.length} ranks x ${t!.timers.length} timers x ${t!.metrics.length} metrics, ${(statSync(cube).size / 1e6).toFixed(2)} MB)`);
  printTable(
    ["operation", "seconds", "MB/s", "vs baseline"],
    [
      ["TAU XML read (readTauXmlProfile)", tXml.toFixed(4), (inflated / tXml).toFixed(1), `${(tXml / tBase).toFixed(2)}x of gunzip+split`],
      ["  baseline: gunzip + split lines", tBase.toFixed(4), (inflated / tBase).toFixed(1), "1.00x"],
    ],
  );
  printTable(["operation", "seconds", "MB/s", "thread x timer rows/s"], [["CUBE4 read (readCubeProfile)", tCube.toFixed(4), (statSync(cube).size / 1e6 / tCube).toFixed(1), `${((rows / tCube) / 1e3).toFixed(0)} k`]]);
}

/**
 * A synthetic trial shaped like a real MPI run: `ranks` ranks, TIME and one counter, `routines`
 * routines written flat and as root-anchored callpaths, two user events.
 */
function syntheticTrial(ranks: number, routines: number): Trial {
  const b = new TrialBuilder({ metrics: ["TIME", "PAPI_FP_INS"] });
  const root = b.timer(".TAU application", ["TAU_DEFAULT"]);
  const flat = Array.from({ length: routines }, (_, i) => b.timer(`routine_${i}(double *, int) C [{solver.c} {${i},1}-{${i + 20},1}]`, ["TAU_USER"]));
  const paths = flat.map((_, i) => b.callpath([".TAU application", b.timerInfo(flat[i]).name], ["TAU_CALLPATH", "TAU_USER"]));
  const ev = [b.userEvent("Message size for all-reduce"), b.userEvent("Message size for broadcast : .TAU application => MPI_Bcast()")];
  for (let r = 0; r < ranks; r++) {
    const th = b.addThread(r);
    let total = 0;
    for (let i = 0; i < routines; i++) {
      const t = 1000 + ((r * 7919 + i * 104729) % 100000);
      total += t;
      const v = { calls: 1 + (i % 50), subroutines: 0, exclusive: [t, t * 12.5], inclusive: [t, t * 12.5] };
      b.setValues(th, flat[i], v);
      b.setValues(th, paths[i], v);
    }
    b.setValues(th, root, { calls: 1, subroutines: routines, exclusive: [5000, 1e6], inclusive: [total + 5000, total * 12.5 + 1e6] });
    for (const e of ev) for (let k = 1; k <= 8; k++) b.addEventSample(th, e, k * 512);
  }
  return b.build();
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

/** Reads every file and splits it into lines: the least any text reader must do. */
function baselineRead(dir: string): number {
  let lines = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) lines += baselineRead(join(dir, e.name));
    else lines += readFileSync(join(dir, e.name), "utf8").split("\n").length;
  }
  return lines;
}

/**
 * Records files (CSV and JSON Lines) of `count` shock-like records, read with `forEachRecord`
 * against reading the file and splitting its lines (JSON Lines: and parsing each line).
 */
function recordsTable(scratch: string, count: number): void {
  const records: InvocationRecord[] = Array.from({ length: count }, (_, i) => ({
    component: i % 3 ? "EFMFlux" : "StatesConstructor",
    port: "compute",
    method: "compute",
    rank: i % 256,
    parameters: { Q: 1000 + (i % 97) * 37, mode: i % 2 ? "strided" : "sequential" },
    start: i * 1.25,
    wallTime: 10 + (i % 13) / 7,
    mpiTime: 0,
    computeTime: 10 + (i % 13) / 7,
    counters: { PAPI_TOT_CYC: 28_000 + i, PAPI_L2_TCM: i % 977 },
  }));
  const rows: (string | number)[][] = [];
  for (const [ext, write, parseLine] of [
    ["csv", writeRecordsCsv, undefined],
    ["jsonl", writeRecordsJsonl, JSON.parse],
  ] as const) {
    const file = join(scratch, `records.${ext}`);
    write(records, file);
    const mb = statSync(file).size / 1e6;
    let seen = 0;
    const tRead = timeBest(() => {
      seen = 0;
      forEachRecord(file, () => seen++);
    }, 3);
    if (seen !== count) throw new Error(`read ${seen} of ${count} records`);
    const tBase = timeBest(() => {
      const lines = readFileSync(file, "utf8").split("\n");
      if (parseLine) for (const l of lines) if (l !== "") parseLine(l);
    }, 3);
    rows.push(
      [`${ext} read (forEachRecord)`, tRead.toFixed(3), `${((count / tRead) / 1e6).toFixed(2)} M/s`, (mb / tRead).toFixed(1), `${(tRead / tBase).toFixed(2)}x of baseline`],
      [`  baseline: readFileSync + split lines${parseLine ? " + JSON.parse" : ""}`, tBase.toFixed(3), `${((count / tBase) / 1e6).toFixed(2)} M/s`, (mb / tBase).toFixed(1), "1.00x"],
    );
  }
  // Writing both formats, as a run does: one pass (each number formatted once) against one file after the other.
  const csvFile = join(scratch, "both.csv");
  const jsonlFile = join(scratch, "both.jsonl");
  const tSeparate = timeBest(() => {
    writeRecordsCsv(records, csvFile);
    writeRecordsJsonl(records, jsonlFile);
  }, 3);
  const tBoth = timeBest(() => writeRecordFiles(records, { csv: csvFile, jsonl: jsonlFile }), 3);
  const mbBoth = (statSync(csvFile).size + statSync(jsonlFile).size) / 1e6;
  rows.push(
    ["csv + jsonl write (writeRecordFiles, one pass)", tBoth.toFixed(3), `${((count / tBoth) / 1e6).toFixed(2)} M/s`, (mbBoth / tBoth).toFixed(1), `${(tSeparate / tBoth).toFixed(2)}x faster`],
    ["  baseline: writeRecordsCsv, then writeRecordsJsonl", tSeparate.toFixed(3), `${((count / tSeparate) / 1e6).toFixed(2)} M/s`, (mbBoth / tSeparate).toFixed(1), "1.00x"],
  );
  console.log(`\nrecords: ${count} shock-like records (two parameters, two counters)`);
  printTable(["operation", "seconds", "records/s", "MB/s", "vs baseline"], rows);
}

export const profileBenchmark: Benchmark = {
  name: "profile",
  summary: "TAU text read/write MB/s (256 ranks), records CSV/JSON Lines read rate, TAU XML and CUBE4 read times, ParaProf .ppk read and write times (mpas.ppk, 128 ranks)",
  run() {
    const scratch = mkdtempSync(join(tmpdir(), "ccasim-bench-profile-"));
    try {
      const ranks = 256;
      const trial = syntheticTrial(ranks, 150);
      const dir = join(scratch, "trial");
      const files = formatTauProfile(trial);
      writeTauProfile(trial, dir);
      const bytes = dirBytes(dir);
      const mb = bytes / 1e6;

      const tWrite = timeBest(() => writeTauProfile(trial, dir, { overwrite: true }), 5);
      const tWriteRaw = timeBest(() => {
        const d = join(scratch, "raw");
        rmSync(d, { recursive: true, force: true });
        mkdirSync(join(d, "MULTI__TIME"), { recursive: true });
        mkdirSync(join(d, "MULTI__PAPI_FP_INS"), { recursive: true });
        for (const f of files) writeFileSync(join(d, f.path), f.text);
      }, 5);
      const tFormat = timeBest(() => formatTauProfile(trial), 5);
      let read: Trial | undefined;
      const tRead = timeBest(() => {
        read = readTauProfile(dir);
      }, 5);
      const tReadRaw = timeBest(() => baselineRead(dir), 5);
      if (read!.threads.length !== ranks) throw new Error("lost threads");

      console.log(`synthetic trial: ${ranks} ranks x ${trial.timers.length} timers x ${trial.metrics.length} metrics, ${files.length} files, ${mb.toFixed(1)} MB`);
      printTable(
        ["operation", "seconds", "MB/s", "vs baseline"],
        [
          ["text read (readTauProfile)", tRead.toFixed(3), (mb / tRead).toFixed(1), `${(tRead / tReadRaw).toFixed(2)}x of read+split`],
          ["  baseline: readFileSync + split lines", tReadRaw.toFixed(3), (mb / tReadRaw).toFixed(1), "1.00x"],
          ["text write (writeTauProfile)", tWrite.toFixed(3), (mb / tWrite).toFixed(1), `${(tWrite / tWriteRaw).toFixed(2)}x of raw write`],
          ["  format only (formatTauProfile)", tFormat.toFixed(3), (mb / tFormat).toFixed(1), ""],
          ["  baseline: writeFileSync of the same bytes", tWriteRaw.toFixed(3), (mb / tWriteRaw).toFixed(1), "1.00x"],
        ],
      );

      recordsTable(scratch, 300_000);
      xmlAndCubeTable();

      const ppk = join(dataDir(), "tau", "ppk", "mpas.ppk");
      if (!existsSync(ppk)) {
        console.log(`\n(mpas.ppk not found at ${ppk}; skipping the packed-profile measurement)`);
        return;
      }
      const raw = readFileSync(ppk);
      let t: Trial | undefined;
      const tPpk = timeBest(() => {
        t = readPackedProfile(ppk);
      }, 5);
      const tGunzip = timeBest(() => gunzipSync(raw), 5);
      const inflated = gunzipSync(raw).length / 1e6;
      // Writing it back: the same bytes ParaProf wrote once inflated, so gzip of them is the baseline.
      const tPpkWrite = timeBest(() => formatPackedProfile(t!), 5);
      const plain = gunzipSync(raw);
      const tGzip = timeBest(() => gzipSync(plain), 5);
      console.log(`\nmpas.ppk: ${t!.threads.length} ranks x ${t!.timers.length} timers x ${t!.metrics.length} metrics, ${(raw.length / 1e6).toFixed(2)} MB compressed, ${inflated.toFixed(2)} MB inflated`);
      printTable(
        ["operation", "seconds", "vs baseline"],
        [
          ["ppk read (readPackedProfile)", tPpk.toFixed(3), `${(tPpk / tGunzip).toFixed(2)}x of gunzip`],
          ["  baseline: gunzip only", tGunzip.toFixed(3), "1.00x"],
          ["ppk write (formatPackedProfile)", tPpkWrite.toFixed(3), `${(tPpkWrite / tGzip).toFixed(2)}x of gzip`],
          ["  baseline: gzip of the inflated bytes", tGzip.toFixed(3), "1.00x"],
        ],
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
