import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cleanUpOnInterrupt, INTERRUPT_EXIT_CODES, type InterruptCleanUp, type InterruptSignal } from "../../cli/interrupt.js";
import { onTemporaryTracked, temporarySibling, trackedTemporaries, trackTemporary, writeTextFileAtomically, writeTauProfile, TrialBuilder } from "../../profile/index.js";
import { StudyStore } from "../../profile/study/index.js";
import { writeDirectoryAtomically } from "../../scenarios/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-interrupt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that records its signal listeners and its exits instead of exiting. */
function fakeProcess() {
  const listeners = new Map<InterruptSignal, () => void>();
  const exits: number[] = [];
  const kills: string[] = [];
  let installs = 0;
  const proc = {
    pid: 4242,
    kill(pid: number, signal: InterruptSignal) {
      kills.push(`${pid} ${signal}`);
      return true;
    },
    on(signal: InterruptSignal, listener: () => void) {
      installs++;
      listeners.set(signal, listener);
      return proc;
    },
    off(signal: InterruptSignal, listener: () => void) {
      if (listeners.get(signal) === listener) listeners.delete(signal);
      return proc;
    },
    exit(code: number): never {
      exits.push(code);
      return undefined as never;
    },
  };
  return { proc, listeners, exits, kills, installs: () => installs };
}

let watching: InterruptCleanUp | undefined;
afterEach(() => {
  watching?.stop();
  watching = undefined;
});
function watch(proc: ReturnType<typeof fakeProcess>["proc"], err: (s: string) => void = () => {}): InterruptCleanUp {
  watching = cleanUpOnInterrupt(proc, err);
  return watching;
}

describe("an interrupted command", () => {
  it("installs no handler for synchronous writing, which the signal's default action ends at once", () => {
    const fake = fakeProcess();
    watch(fake.proc);
    const forget = trackTemporary(join(dir, ".never-made.tmp-1-0"));
    expect(fake.installs()).toBe(0);
    forget();
    writeTextFileAtomically(join(dir, "table.csv"), (write) => write("a,b\n"));
    writeDirectoryAtomically(join(dir, "folder"), (tmp) => writeFileSync(join(tmp, "x.txt"), "x"));
    const b = new TrialBuilder({ metrics: ["TIME"] });
    b.setValues(b.addThread(0), b.timer("main"), { calls: 1, subroutines: 0, exclusive: [10], inclusive: [10] });
    writeTauProfile(b.build(), join(dir, "tau"));
    expect(fake.installs()).toBe(0);
  });

  it("installs its handlers while an output is written asynchronously", () => {
    const fake = fakeProcess();
    watch(fake.proc);
    const forget = trackTemporary(join(dir, ".never-made.tmp-1-0"), { asynchronous: true });
    expect([...fake.listeners.keys()].sort()).toEqual(["SIGINT", "SIGTERM"]);
    forget();
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`removes the temporaries being written asynchronously on ${signal}, then ends the process by ${signal}`, () => {
      const fake = fakeProcess();
      let said = "";
      watch(fake.proc, (s) => (said += s));
      const folder = temporarySibling(join(dir, "run"));
      mkdirSync(folder);
      writeFileSync(join(folder, "records.csv"), "half");
      trackTemporary(folder, { asynchronous: true });
      fake.listeners.get(signal)!();
      // The handlers are gone, so the signal sent again has its default action.
      expect(fake.listeners.size).toBe(0);
      expect(fake.kills).toEqual([`4242 ${signal}`]);
      expect(fake.exits).toEqual([INTERRUPT_EXIT_CODES[signal]]); // only where the signal did not end it
      expect(existsSync(folder)).toBe(false);
      expect(trackedTemporaries()).toEqual([]);
      expect(said).toBe(`\nccasim: interrupted (${signal}); removed the unfinished output ${folder}\n`);
    });
  }

  it("removes its handlers once the event loop has looked for a signal after the writing ended", async () => {
    const fake = fakeProcess();
    let said = "";
    const { finish } = watch(fake.proc, (s) => (said += s));
    trackTemporary(join(dir, ".export.csv.tmp-1-0"), { asynchronous: true })();
    expect(fake.listeners.size).toBe(2);
    expect(await finish(0)).toBe(0);
    expect(fake.listeners.size).toBe(0);
    expect(fake.exits).toEqual([]);
    expect(said).toBe("");
  });

  it("reports a signal handled after the writing ended as late: the output is kept and the exit code is the command's", async () => {
    const fake = fakeProcess();
    let said = "";
    const { finish } = watch(fake.proc, (s) => (said += s));
    const output = join(dir, "export.csv");
    const tmp = temporarySibling(output);
    writeFileSync(tmp, "a,b\n");
    const forget = trackTemporary(tmp, { asynchronous: true });
    // The signal came while the temporary was renamed: handled once that JavaScript returned.
    const { renameSync } = await import("node:fs");
    renameSync(tmp, output);
    forget();
    fake.listeners.get("SIGTERM")!();
    expect(fake.kills).toEqual([]);
    expect(fake.exits).toEqual([]);
    expect(fake.listeners.size).toBe(0); // a second signal has its default action
    expect(await finish(0)).toBe(0);
    expect(existsSync(output)).toBe(true);
    expect(said).toBe(`\nccasim: SIGTERM came as ${output} was being completed: the output is complete and kept; exit code 0 (the command's own)\n`);
  });

  it("keeps a failed command's exit code after a late signal", async () => {
    const fake = fakeProcess();
    let said = "";
    const { finish } = watch(fake.proc, (s) => (said += s));
    trackTemporary(join(dir, ".failed.csv.tmp-1-0"), { asynchronous: true })();
    fake.listeners.get("SIGINT")!();
    expect(await finish(2)).toBe(2);
    expect(said).toContain(`SIGINT came after the writing of ${join(dir, "failed.csv")} had ended; exit code 2 (the command's own)`);
  });

  it("stops a command that starts another output after a late signal, by that signal", () => {
    const fake = fakeProcess();
    watch(fake.proc);
    trackTemporary(join(dir, ".first.csv.tmp-1-0"), { asynchronous: true })();
    fake.listeners.get("SIGINT")!();
    const second = temporarySibling(join(dir, "second"));
    mkdirSync(second);
    trackTemporary(second);
    expect(fake.kills).toEqual(["4242 SIGINT"]);
    expect(existsSync(second)).toBe(false);
  });

  it("installs its handlers for a query export, and removes them after it", async () => {
    const fake = fakeProcess();
    const { finish } = watch(fake.proc);
    const installedWhileWriting: number[] = [];
    const stopSeeing = onTemporaryTracked(() => installedWhileWriting.push(fake.listeners.size));
    const store = await StudyStore.open(join(dir, "study.db"), { create: true });
    try {
      const out = join(dir, "export.parquet");
      await store.exportQuery("SELECT 42 AS answer", out);
      expect(existsSync(out)).toBe(true);
    } finally {
      store.close();
      stopSeeing();
    }
    expect(installedWhileWriting).toEqual([2]);
    expect(await finish(0)).toBe(0);
    expect(fake.listeners.size).toBe(0);
  });
});

const MAIN = resolve("dist/cli/main.js");
/** A run whose outputs take a noticeable time to write (about 50 MB of records). */
const BIG = ["run", "scenarios/known-models.yaml", "--quiet", "--set", "workload.iterations=5000", "--set", "machine.nodes=8"];

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Milliseconds from the signal to the exit. */
  afterSignalMs: number;
  /** Whether a temporary of the output existed when the signal was sent. */
  writing: boolean;
}

/**
 * Runs `ccasim args` and sends `signal` when `ready()` holds (polled every 5 ms) or after
 * `afterMs`, whichever comes first.
 */
function interrupt(args: readonly string[], signal: NodeJS.Signals, ready: () => boolean, afterMs = Infinity, cwd?: string): Promise<Ended> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ["ignore", "ignore", "pipe"], cwd });
    let stderr = "";
    let sentAt = 0;
    let writing = false;
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const started = Date.now();
    const poll = setInterval(() => {
      if (sentAt > 0) return;
      const now = ready();
      if (now || Date.now() - started >= afterMs) {
        writing = now;
        sentAt = Date.now();
        child.kill(signal);
      }
    }, 5);
    child.on("error", fail);
    // why: "close", not "exit": the stderr the child wrote may not have been read at "exit"
    child.on("close", (code, sig) => {
      clearInterval(poll);
      done({ code, signal: sig, stderr, afterSignalMs: Date.now() - sentAt, writing });
    });
  });
}

const leftovers = (name: string) => readdirSync(dir).filter((n) => n.startsWith(`.${name}.`));
/** Whether `path` is a file now (false once it is gone). */
const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
/** True once a temporary folder of `name` holds files (its outputs are being written). */
const writingFolder = (name: string) => () =>
  readdirSync(dir).some((n) => {
    if (!n.startsWith(`.${name}.tmp-`)) return false;
    try {
      return readdirSync(join(dir, n)).length > 0;
    } catch {
      return false; // why: removed (or renamed into place) since the listing
    }
  });

/** A program model with a trace that simulates for seconds (a million loop iterations). */
const TRACED = `name: traced
seed: 1
machine: { preset: pentium3-xeon-700, nodes: 1, processesPerNode: 1 }
program:
  costUnit: us
  globals: { x: int }
  main:
    - while: x < 3e6
      bound: 4e6
      do:
        - action: Step
          code: x = x + 1
          cost: 1
outputs: { profile: true, records: [], callgraph: false, trace: true }
`;

describe("ccasim interrupted by a signal", () => {
  it("stops a simulation with a trace at once, writing nothing", async () => {
    expect(existsSync(MAIN), "run 'npm run build' first: this test runs the built CLI").toBe(true);
    const scenario = join(dir, "traced.yaml");
    writeFileSync(scenario, TRACED);
    // (Not the empty folder the writability check makes and removes at once: one holding outputs.)
    const r = await interrupt(["run", scenario, "--quiet", "--out", join(dir, "traced")], "SIGTERM", writingFolder("traced"), 400);
    expect(r.writing, "the simulation ended before the signal: make TRACED longer").toBe(false);
    expect(r.signal, r.stderr).toBe("SIGTERM");
    expect(r.afterSignalMs).toBeLessThan(1000);
    expect(existsSync(join(dir, "traced"))).toBe(false);
    expect(leftovers("traced")).toEqual([]);
  });

  it("ends a run at once while it writes its outputs, the output absent and its temporary left for the next run", async () => {
    const out = join(dir, "term");
    const r = await interrupt([...BIG, "--out", out], "SIGTERM", writingFolder("term"));
    expect(r.writing).toBe(true);
    expect(r.signal, r.stderr).toBe("SIGTERM");
    expect(r.stderr).not.toContain("interrupted");
    expect(existsSync(out)).toBe(false);
    expect(leftovers("term")).toHaveLength(1);
    const again = spawn(process.execPath, [MAIN, "run", "scenarios/known-models.yaml", "--quiet", "--set", "workload.iterations=2", "--out", out]);
    expect(await new Promise((done) => again.on("exit", done))).toBe(0);
    expect(leftovers("term")).toEqual([]);
    expect(readdirSync(out)).toContain("summary.json");
  });

  it("leaves its temporary folder on SIGKILL, which the next run to that folder removes", async () => {
    const out = join(dir, "killed");
    const r = await interrupt([...BIG, "--out", out], "SIGKILL", writingFolder("killed"));
    expect(r.signal).toBe("SIGKILL");
    expect(leftovers("killed")).toHaveLength(1);
    const again = spawn(process.execPath, [MAIN, "run", "scenarios/known-models.yaml", "--quiet", "--set", "workload.iterations=2", "--out", out]);
    expect(await new Promise((done) => again.on("exit", done))).toBe(0);
    expect(leftovers("killed")).toEqual([]);
    expect(readdirSync(out)).toContain("summary.json");
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`removes an unfinished query export on ${signal} and ends by ${signal} (${INTERRUPT_EXIT_CODES[signal]} in a shell)`, async () => {
      const db = join(dir, `export-${signal}.db`);
      (await StudyStore.open(db, { create: true })).close();
      const name = `rows-${signal}.csv`;
      const sql = "SELECT i, i * 2 AS j, i % 7 AS k FROM range(400000000) t(i)";
      // The export's temporary file, not the folder the writability check makes and removes at once.
      const r = await interrupt(["query", db, sql, "--out", join(dir, name)], signal, () => leftovers(name).some((n) => isFile(join(dir, n))));
      expect(r.writing).toBe(true);
      expect(r.signal, r.stderr).toBe(signal);
      expect(r.stderr).toContain(`ccasim: interrupted (${signal}); removed the unfinished output`);
      expect(r.afterSignalMs).toBeLessThan(2000);
      expect(existsSync(join(dir, name))).toBe(false);
      expect(leftovers(name)).toEqual([]);
    });
  }
});
