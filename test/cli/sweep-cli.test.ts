import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-sweep-cli-"));
const db = join(dir, "small.db");
const SWEEP = "test/scenarios/sweeps/small.sweep.yaml";

beforeAll(async () => {
  const r = await run(["sweep", SWEEP, "--db", db, "--quiet"]);
  expect(r.code, r.err).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ccasim sweep and query", () => {
  it("lists the points with ids and seeds", async () => {
    const r = await run(["sweep", SWEEP, "--list"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n").filter((l) => /^\s+\d+\s+[0-9a-f]{16}\s+seed/.test(l))).toHaveLength(12);
  });

  it("re-runs one point alone with the same result as the sweep stored", async () => {
    const r = await run(["sweep", SWEEP, "--point", "5", "--out", join(dir, "p5")]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("same as: ccasim run");
    const summary = JSON.parse(readFileSync(join(dir, "p5", "summary.json"), "utf8")) as { simulatedTime: number; seed: number; events: number };
    const q = await run(["query", db, "SELECT seed, simulated_time, events FROM point WHERE point_index = 5", "--json"]);
    expect(JSON.parse(q.out)).toEqual([{ seed: summary.seed, simulated_time: summary.simulatedTime, events: summary.events }]);
  });

  it("refuses --point --out into a folder a run did not write, before running, unless --overwrite", async () => {
    const out = join(dir, "mine");
    mkdirSync(out);
    writeFileSync(join(out, "notes.txt"), "mine");
    const r = await run(["sweep", SWEEP, "--point", "1", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`output folder '${out}': it holds files a run does not write (notes.txt)`);
    expect(r.err).toContain("--overwrite");
    expect(r.out).toBe("");
    expect(readdirSync(out)).toEqual(["notes.txt"]);
    const replaced = await run(["sweep", SWEEP, "--point", "1", "--out", out, "--overwrite"]);
    expect(replaced.code, replaced.err).toBe(0);
    expect(readdirSync(out)).toContain("summary.json");
    expect(readdirSync(out)).not.toContain("notes.txt");
    expect((await run(["sweep", SWEEP, "--overwrite", "--db", join(dir, "z.db")])).err).toContain("--overwrite does not apply to a sweep run; it is read by --point K");
  });

  it("exits 1 when points failed, saying how many and how to read their errors, also when resumed", async () => {
    const bad = join(dir, "bad.db");
    const r = await run(["sweep", "test/scenarios/sweeps/with-bad-point.sweep.yaml", "--db", bad, "--quiet"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("4 points run, 2 failed");
    const query = /^ {2}(ccasim query .*)$/m.exec(r.err)?.[1];
    expect(r.err).toContain("sweep: 2 points failed; the database keeps their errors:");
    expect(query).toBeDefined();
    // The printed command lists the failed points with their errors.
    const sql = /"(.*)"$/.exec(query!)![1];
    const listed = await run(["query", bad, sql, "--json"]);
    const errors = JSON.parse(listed.out) as { point_index: number; message: string }[];
    expect(errors.map((x) => [x.point_index, /A9/.test(x.message)])).toEqual([[1, true], [3, true]]);
    // As printed (a text table): each message whole, being the table's last column.
    const table = await run(["query", bad, sql]);
    expect(errors[0]!.message.length).toBeGreaterThan(60);
    for (const e of errors) expect(table.out).toContain(e.message.replace(/\n/g, " "));
    const resumed = await run(["sweep", "test/scenarios/sweeps/with-bad-point.sweep.yaml", "--db", bad, "--quiet", "--resume"]);
    expect(resumed.code).toBe(1);
    expect(resumed.err).toContain("sweep: 2 points failed (2 of them stored by an earlier run)");
  });

  it("rejects a --jobs count that is not a positive integer", async () => {
    const r = await run(["sweep", SWEEP, "--jobs", "0", "--db", join(dir, "j.db")]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("ccasim sweep: --jobs expects a positive integer, got '0'\n");
  });

  it("prints query results as a table, CSV and JSON, and counts the tables without SQL", async () => {
    const sql = "SELECT status, count(*) AS n FROM point GROUP BY status";
    expect((await run(["query", db, sql])).out).toMatch(/status\s+n\n-+\s+-+\nok\s+12\n\(1 row\)/);
    expect((await run(["query", db, sql, "--csv"])).out).toBe("status,n\nok,12\n");
    expect(JSON.parse((await run(["query", db, sql, "--json"])).out)).toEqual([{ status: "ok", n: 12 }]);
    expect((await run(["query", db])).out).toMatch(/point\s+12/);
  });

  it("keeps every column of a result whose columns share a name, in JSON and CSV, named as --out names them", async () => {
    const sql = "SELECT p.name, r.name, p.value FROM parameter p JOIN record_parameter r USING (point_id) ORDER BY ALL LIMIT 1";
    const file = join(dir, "same-names.csv");
    expect((await run(["query", db, sql, "--out", file])).code).toBe(0);
    const exported = readFileSync(file, "utf8");
    expect(exported.split("\n")[0]).toBe("name,name_1,value");
    expect((await run(["query", db, sql, "--csv"])).out).toBe(exported);
    const [row] = JSON.parse((await run(["query", db, sql, "--json"])).out) as Record<string, unknown>[];
    expect(Object.keys(row!)).toEqual(["name", "name_1", "value"]);
    expect(`name,name_1,value\n${Object.values(row!).join(",")}\n`).toBe(exported);
  });

  it("exports to Parquet with --out", async () => {
    const file = join(dir, "records.parquet");
    const r = await run(["query", db, "SELECT * FROM record", "--out", file]);
    expect(r.code).toBe(0);
    expect(readFileSync(file).subarray(0, 4).toString()).toBe("PAR1");
  });

  it("exports SQL of any shape with --out: a trailing ';', comments, VALUES, a parenthesised query", async () => {
    const cases: [string, string][] = [
      ["-- points by status\nSELECT status, count(*) AS n FROM point GROUP BY status;", "status,n\nok,12\n"],
      ["SELECT count(*) AS n FROM point -- all of them", "n\n12\n"],
      ["VALUES (1, 'a')", "col0,col1\n1,a\n"],
      ["(SELECT 2 AS two)", "two\n2\n"],
      ["SELECT count(*) AS n FROM point; -- done", "n\n12\n"],
      ["SELECT ';' AS s, '--' AS d; /* end */\n", "s,d\n;,--\n"],
      ["--no space after the dashes\nSELECT 3 AS three", "three\n3\n"],
    ];
    for (const [i, [sql, csv]] of cases.entries()) {
      const file = join(dir, `shape-${i}.csv`);
      const r = await run(["query", db, sql, "--out", file]);
      expect(r.code, `${sql}: ${r.err}`).toBe(0);
      expect(readFileSync(file, "utf8")).toBe(csv);
    }
    const printed = await run(["query", db, "-- a comment first\nSELECT count(*) AS n FROM point;", "--csv"]);
    expect(printed.code, printed.err).toBe(0);
    expect(printed.out).toBe("n\n12\n");
  });

  it("refuses several statements and contradictory formats, exit 2, writing nothing", async () => {
    const two = await run(["query", db, "SELECT 1 AS a; SELECT 2 AS b"]);
    expect(two.code).toBe(2);
    expect(two.err).toContain("2 statements");
    const file = join(dir, "two.csv");
    expect((await run(["query", db, "SELECT 1 AS a; SELECT 2 AS b", "--out", file])).code).toBe(2);
    expect(readdirSync(dir)).not.toContain("two.csv");
    const both = await run(["query", db, "SELECT 1", "--csv", "--json"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("not both");
    expect((await run(["query", db, "SELECT 1", "--json", "--out", join(dir, "j.csv")])).code).toBe(2);
  });

  it("prints nothing on stdout for a sweep fit that fails, and names the parameters it lacks values of", async () => {
    // Each value of workload.x has records at one x only.
    const r = await run(["sweep", "fit", db, "--parameter", "x", "--component", "A", "--by", "workload.x", "--by-variable", "X"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain("no value of the swept parameter workload.x (X) has observations at 3 or more distinct values of x (at most 1)");
    // Without --by-variable, the key is named beside the formulas' default name of it.
    const unnamed = await run(["sweep", "fit", db, "--parameter", "x", "--component", "A", "--by", "workload.x"]);
    expect(unnamed.err).toContain("no value of the swept parameter workload.x (P) has observations");
    const one = await run(["sweep", "fit", db, "--parameter", "x", "--component", "A", "--where", "x=1"]);
    expect(one.code).toBe(2);
    expect(one.out).toBe("");
  });

  it("refuses SQL with --tables, and SQL that holds no statement, exit 2, writing nothing", async () => {
    const both = await run(["query", db, "--tables", "SELECT 1"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("give SQL or --tables, not both");
    for (const sql of ["", "  ", "-- only a comment", ";"]) {
      const r = await run(["query", db, sql]);
      expect(r.code, sql).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toContain("the SQL holds no statement");
    }
    expect((await run(["query", db, "", "--out", join(dir, "empty.csv")])).code).toBe(2);
    expect(readdirSync(dir)).not.toContain("empty.csv");
  });

  it("exits 2 for bad SQL, a missing database and a second run without --resume", async () => {
    expect((await run(["query", db, "SELEC 1"])).code).toBe(2);
    expect((await run(["query", join(dir, "nope.db"), "SELECT 1"])).code).toBe(2);
    const again = await run(["sweep", SWEEP, "--db", db, "--quiet"]);
    expect(again.code).toBe(2);
    expect(again.err).toContain("--resume");
  });

  it("refuses a sweep none of whose points loads, exit 2, writing no study", async () => {
    const bad = join(dir, "misspelt.sweep.yaml");
    writeFileSync(bad, `scenario: ${join(process.cwd(), "scenarios", "known-models.yaml")}\naxes:\n  machine.l2.sise: [256KiB, 512KiB]\n`);
    const r = await run(["sweep", bad, "--db", join(dir, "misspelt.db"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`ccasim sweep: ${bad}: no point of the sweep loads, so none would run`);
    expect(r.err).toContain("machine.l2.sise: unknown machine parameter (did you mean 'l2.size'?)");
    expect(readdirSync(dir).filter((f) => f.startsWith("misspelt.db"))).toEqual([]);
    const emit = await run(["sweep", bad, "--emit", "slurm", "--tasks", "2", "--shards", join(dir, "misspelt-shards")]);
    expect(emit.code).toBe(2);
  });

  it("refuses an option the chosen mode would ignore, naming the mode that reads it", async () => {
    const out = await run(["sweep", SWEEP, "--db", join(dir, "x.db"), "--out", join(dir, "x.db")]);
    expect(out.code).toBe(2);
    expect(out.err).toContain("--out does not apply to a sweep run; it is read by --point K");
    const both = await run(["sweep", SWEEP, "--list", "--point", "3"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("--point does not apply to --list");
    const tasks = await run(["sweep", SWEEP, "--tasks", "4", "--quiet", "--db", join(dir, "y.db")]);
    expect(tasks.err).toContain("--tasks does not apply to a sweep run; it is read by --emit slurm");
    expect((await run(["sweep", SWEEP, "--point", "2", "--jobs", "2"])).err).toContain("--jobs does not apply to --point K; it is read by --emit slurm, a sweep run");
    // --quiet is read by --point too, as by 'ccasim run': only the output folder is printed.
    const quiet = await run(["sweep", SWEEP, "--point", "2", "--quiet", "--out", join(dir, "quiet-point")]);
    expect([quiet.code, quiet.out, quiet.err]).toEqual([0, `${join(dir, "quiet-point")}\n`, ""]);
  });

  it("emits a Slurm job array that runs one slice per task into its own shard", async () => {
    const r = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "4", "--db", join(dir, "s.db"), "--ccasim", "ccasim"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^#!\/bin\/bash\n/);
    expect(r.out).toContain("#SBATCH --array=0-3");
    expect(r.out).toContain('--slice "${SLURM_ARRAY_TASK_ID}/4"');
    expect(r.out).toMatch(/shard-"\$\{SLURM_ARRAY_TASK_ID\}"\.db --resume/);
    expect(r.out).toContain("ccasim sweep merge");
  });

  it("has its tasks run this installation's main.js by default, its path quoted for the shell (a folder name may hold a space)", async () => {
    const r = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "2", "--db", join(dir, "default-command.db")]);
    expect(r.code, r.err).toBe(0);
    const main = resolve("dist", "cli", "main.js");
    expect(r.out).toContain(`\nexec node '${main}' sweep `);
    expect(r.out).toContain(`# After every task has finished:  node '${main}' sweep merge `);
  });

  it("counts one point and one slice in the singular in --list and --emit slurm", async () => {
    const one = join(dir, "one-point.sweep.yaml");
    writeFileSync(one, `scenario: ${resolve("scenarios/known-models.yaml")}\naxes:\n  workload.x: [2]\n`);
    const list = await run(["sweep", one, "--list"]);
    expect(list.out).toMatch(/^one-point\.sweep: 1 point, axes workload\.x, study hash [0-9a-f]{16}\n/);
    const emit = await run(["sweep", one, "--emit", "slurm", "--tasks", "1", "--db", join(dir, "one-point.db"), "--ccasim", "ccasim"]);
    expect(emit.out).toMatch(/\n# ccasim sweep one-point\.sweep: 1 point in 1 slice \(study hash [0-9a-f]{16}\)\.\n/);
  });

  it("writes --script into a folder it makes, executable, and refuses a --script that is a folder, naming it, before making the shards' folder", async () => {
    const script = join(dir, "new-scripts", "deep", "array.sh");
    const r = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "2", "--db", join(dir, "scripted.db"), "--ccasim", "ccasim", "--script", script]);
    expect([r.code, r.err]).toEqual([0, `wrote ${script}: submit it with sbatch, then merge the shards into ${join(dir, "scripted.db")}\n`]);
    expect(readFileSync(script, "utf8")).toMatch(/^#!\/bin\/bash\n/);
    expect(statSync(script).mode & 0o777).toBe(0o755);
    const folder = join(dir, "script-folder.sh");
    mkdirSync(folder);
    const refused = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "2", "--db", join(dir, "refused.db"), "--ccasim", "ccasim", "--script", folder]);
    expect([refused.code, refused.err]).toEqual([2, `ccasim sweep: cannot write the Slurm script '${folder}': it is a folder; name the file to write in it\n`]);
    expect(existsSync(join(dir, "refused-shards"))).toBe(false);
  });

  it("refuses a shard folder that is a file or cannot be made, naming it, exit 2", async () => {
    const file = join(dir, "shards-file");
    writeFileSync(file, "mine\n");
    const onFile = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "2", "--shards", file, "--db", join(dir, "sf.db"), "--ccasim", "ccasim"]);
    expect([onFile.code, onFile.err]).toEqual([2, `ccasim sweep: cannot write the shard folder '${file}': it is a file, not a folder\n`]);
    expect(readFileSync(file, "utf8")).toBe("mine\n");
    const unwritable = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "2", "--shards", "/proc/no-shards", "--db", join(dir, "sf.db"), "--ccasim", "ccasim"]);
    expect([unwritable.code, unwritable.err]).toEqual([2, expect.stringContaining("cannot write the shard folder '/proc/no-shards': its parent /proc is not writable")]);
  });

  it("puts the shards, by default, in the --db path without .db, then -shards, as --help says", async () => {
    const db = join(dir, "shards-default", "sl.db");
    const r = await run(["sweep", SWEEP, "--emit", "slurm", "--tasks", "2", "--db", db, "--ccasim", "ccasim"]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, "shards-default", "sl-shards"))).toBe(true);
    expect(r.out).toContain(`--db '${join(dir, "shards-default", "sl-shards")}'/shard-`);
    expect((await run(["sweep", "--help"])).out).toContain("(default: the --db path without its .db or\n                       .duckdb, then -shards: --db out/sl.db -> out/sl-shards)");
  });

  it("merges shards idempotently", async () => {
    for (const i of [0, 1]) expect((await run(["sweep", SWEEP, "--slice", `${i}/2`, "--db", join(dir, `shard-${i}.db`), "--quiet"])).code).toBe(0);
    const shards = [0, 1].map((i) => join(dir, `shard-${i}.db`));
    const first = await run(["sweep", "merge", join(dir, "merged.db"), ...shards]);
    expect(first.out).toContain("12 points added, 0 already present, 12 points in the study");
    const second = await run(["sweep", "merge", join(dir, "merged.db"), ...shards]);
    expect(second.out).toContain("0 points added, 12 already present, 12 points in the study");
  });

  it("counts one merged point as one point", async () => {
    const shard = join(dir, "one-shard.db");
    expect((await run(["sweep", SWEEP, "--slice", "0/12", "--db", shard, "--quiet"])).code).toBe(0);
    const r = await run(["sweep", "merge", join(dir, "one.db"), shard]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("one.db: 1 point added, 0 already present, 1 point in the study");
    expect(r.err).toContain("one-shard.db: 1 point added, 0 already present");
  });

  it("merges nothing, and creates no study, when a shard is missing or of another study", async () => {
    const shard0 = join(dir, "m-shard-0.db");
    expect((await run(["sweep", SWEEP, "--slice", "0/2", "--db", shard0, "--quiet"])).code).toBe(0);
    const other = join(dir, "other.db");
    expect((await run(["sweep", "test/scenarios/sweeps/with-bad-point.sweep.yaml", "--db", other, "--quiet"])).code).toBe(1);
    const fresh = join(dir, "fresh.db");
    const missing = await run(["sweep", "merge", fresh, shard0, join(dir, "nope.db")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("nope.db: no such shard database");
    const mixed = await run(["sweep", "merge", fresh, shard0, other]);
    expect(mixed.code).toBe(2);
    expect(mixed.err).toContain(`${other}: belongs to another study than ${shard0}`);
    expect(readdirSync(dir).filter((f) => f.startsWith("fresh"))).toEqual([]);
    // A study that exists keeps what it held.
    expect((await run(["sweep", "merge", fresh, shard0])).code).toBe(0);
    const refused = await run(["sweep", "merge", fresh, other]);
    expect(refused.code).toBe(2);
    expect((await run(["query", fresh, "SELECT count(*) AS n FROM point", "--csv"])).out).toBe("n\n6\n");
    // A study is not its own shard.
    const itself = await run(["sweep", "merge", fresh, shard0, fresh]);
    expect(itself.code).toBe(2);
    expect(itself.err).toContain("is the study merged into");
  });

  it("prints no progress when a resumed sweep finds every point stored", async () => {
    const db = join(dir, "complete.db");
    expect((await run(["sweep", SWEEP, "--db", db, "--quiet"])).code).toBe(0);
    const again = await run(["sweep", SWEEP, "--db", db, "--resume", "--progress-every", "0"]);
    expect(again.code).toBe(0);
    expect(again.err).not.toContain("sweep: 0/0");
    expect(again.err).not.toContain("does not exist yet");
  });

  it("says when --resume starts a study its --db does not hold yet", async () => {
    const db = join(dir, "not-yet.db");
    const first = await run(["sweep", SWEEP, "--db", db, "--resume", "--progress-every", "0"]);
    expect(first.code).toBe(0);
    expect(first.err).toContain(`--resume: ${db} does not exist yet; the study starts there\n`);
    expect(first.out).toMatch(/12 points run/);
    // --quiet leaves the note out, as a Slurm task's first run of its shard does.
    const quiet = await run(["sweep", SWEEP, "--db", join(dir, "not-yet-quiet.db"), "--resume", "--quiet"]);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe("");
    expect((await run(["sweep", "--help"])).out).toContain("a --db\n                       not there yet starts the study, with a note on stderr (not with --quiet)");
  });
});

describe("ccasim validate on a sweep file", () => {
  it("reads the sweep file of 'ccasim sweep --help' beside known-models.yaml, refusing only the workload keys the help says it lacks", async () => {
    const help = (await run(["sweep", "--help"])).out;
    expect(help).toContain("known-models.yaml defines x and iterations, not the Q, a, b, y and z shown here");
    const lines = help.split("\n");
    const from = lines.findIndex((l) => l.startsWith("  name: my-study"));
    const to = lines.findIndex((l, i) => i > from && l.startsWith("  set: "));
    const at = join(dir, "help-example");
    mkdirSync(at);
    writeFileSync(join(at, "known-models.yaml"), readFileSync("scenarios/known-models.yaml", "utf8"));
    writeFileSync(join(at, "my.sweep.yaml"), lines.slice(from, to + 1).map((l) => l.slice(2)).join("\n") + "\n");
    const r = await run(["validate", join(at, "my.sweep.yaml")]);
    expect(r.code).toBe(2);
    const refused = [...r.err.matchAll(/\["workload\.(\w+)"\]: '\w+' is not a workload variable/g)].map((m) => m[1]);
    expect(refused.sort()).toEqual(["Q", "a", "b", "y", "z"]);
    expect(r.err).toContain(": 5 errors\n");
  });

  it("checks the sweep and the scenario of every point, listing the points that would fail", async () => {
    const ok = await run(["validate", SWEEP]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/small\.sweep\.yaml: valid — sweep 'small\.sweep', 12 points over assembly\.components\.A\.params\.implementation, workload\.x \(scenario .*known-models\.yaml\)\n$/);
    // An implementation the assembly does not have fails the points that take it, and only those.
    const bad = join(dir, "bad.sweep.yaml");
    writeFileSync(bad, readFileSync(SWEEP, "utf8").replace("scenario: ../../../scenarios/", `scenario: ${join(process.cwd(), "scenarios")}/`).replace("[A1, A2]", "[A1, A3]"));
    const r = await run(["validate", bad]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${bad}: 6 of the sweep 'bad.sweep', 12 points`);
    // The six points fail alike: listed once.
    expect(r.err).toContain("would fail:\n  6 points (2, 3, 6, 7, 10, 11), like point 2 (workload.iterations=5 assembly.components.A.params.implementation=A3 workload.x=1):\n");
    expect(r.err).toContain("'A3' is not one of the implementations: A1, A2");
    // The error names the sweep key that set the value, at its line in the sweep file.
    expect(r.err).toContain(`(from axes key 'assembly.components.A.params.implementation' (${bad}:7:3))`);
    expect(r.err).not.toContain("... and");
    // An inline scenario's errors give the sweep file's own lines and columns.
    const inline = join(dir, "inline.sweep.yaml");
    const text = readFileSync("test/scenarios/sweeps/cost-law.sweep.yaml", "utf8").replace("type: dummy", "type: dummmy");
    writeFileSync(inline, text);
    const line = text.split("\n").findIndex((l) => l.includes("type: dummmy")) + 1;
    const column = text.split("\n")[line - 1]!.indexOf("type") + 1;
    const i = await run(["validate", inline]);
    expect(i.code).toBe(2);
    expect(i.err).toContain(`${inline} (inline scenario):${line}:${column}: assembly.components.Kernel.type: unknown component type 'dummmy'`);
    const set = await run(["validate", SWEEP, "--set", "workload.x=2"]);
    expect(set.code).toBe(2);
    expect(set.err).toBe("ccasim validate: --set does not apply to a sweep file; fix a value for every point in its set: section\n");
  });

  it("with --run also runs what loads: a scenario, or every point of a sweep, writing nothing", async () => {
    // A negative x loads (it is a number) but gives A a negative cost, which only a run evaluates.
    const loads = await run(["validate", "scenarios/known-models.yaml", "--set", "workload.x=-5"]);
    expect(loads.code, loads.err).toBe(0);
    const runs = await run(["validate", "scenarios/known-models.yaml", "--set", "workload.x=-5", "--run"]);
    expect(runs.code).toBe(2);
    expect(runs.err).toMatch(/known-models\.yaml:\d+:\d+: assembly\.components\.A\.params\.implementations\.A1: evaluated to -10 microseconds; a cost is 0 or more \(overridden: --set workload\.x=-5\)/);
    const good = await run(["validate", "scenarios/known-models.yaml", "--run"]);
    expect(good.out).toMatch(/: valid — scenario 'known-models', .*; ran: simulated 0\.\d+ s, \d+ events\n$/);
    const negative = join(dir, "negative.sweep.yaml");
    writeFileSync(negative, readFileSync(SWEEP, "utf8").replace("scenario: ../../../scenarios/", `scenario: ${join(process.cwd(), "scenarios")}/`).replace(/workload\.x: \[[^\]]*\]/, "workload.x: [-1, 1]"));
    expect((await run(["validate", negative])).code).toBe(0);
    const sweep = await run(["validate", negative, "--run"]);
    expect(sweep.code).toBe(2);
    expect(sweep.err).toContain("points over");
    expect(sweep.err).toContain("would fail (loaded and run):");
    expect(sweep.err).toContain("evaluated to -2 microseconds; a cost is 0 or more");
  });
});
