import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanUpOnInterrupt, INTERRUPT_EXIT_CODES, type InterruptSignal } from "../../cli/interrupt.js";
import { temporarySibling, trackedTemporaries, trackTemporary } from "../../profile/index.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-interrupt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that records its signal listeners and its exit instead of exiting. */
function fakeProcess() {
  const listeners = new Map<InterruptSignal, () => void>();
  const exits: number[] = [];
  const proc = {
    once(signal: InterruptSignal, listener: () => void) {
      listeners.set(signal, listener);
      return proc;
    },
    exit(code: number): never {
      exits.push(code);
      return undefined as never;
    },
  };
  return { proc, listeners, exits };
}

describe("an interrupted command", () => {
  it("installs its handlers only once an output is being written, keeping Ctrl-C immediate before", () => {
    const { proc, listeners } = fakeProcess();
    const { stop } = cleanUpOnInterrupt(proc, () => {});
    expect(listeners.size).toBe(0);
    const forget = trackTemporary(join(dir, ".never-made.tmp-1-0"));
    expect([...listeners.keys()].sort()).toEqual(["SIGINT", "SIGTERM"]);
    forget();
    stop();
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`removes the temporaries being written on ${signal} and exits ${INTERRUPT_EXIT_CODES[signal]}`, () => {
      const { proc, listeners, exits } = fakeProcess();
      let said = "";
      const { stop } = cleanUpOnInterrupt(proc, (s) => (said += s));
      const folder = temporarySibling(join(dir, "run"));
      mkdirSync(folder);
      writeFileSync(join(folder, "records.csv"), "half");
      trackTemporary(folder);
      listeners.get(signal)!();
      expect(exits).toEqual([INTERRUPT_EXIT_CODES[signal]]);
      expect(existsSync(folder)).toBe(false);
      expect(trackedTemporaries()).toEqual([]);
      expect(said).toBe(`\nccasim: interrupted (${signal}); removed the unfinished output ${folder}\n`);
      stop();
    });
  }
});

const MAIN = resolve("dist/cli/main.js");
/** A run whose outputs take a noticeable time to write (about 50 MB of records). */
const BIG = ["run", "scenarios/known-models.yaml", "--quiet", "--set", "workload.iterations=5000", "--set", "machine.nodes=8"];

/**
 * Runs `ccasim` and sends `signal` once a temporary folder of `out` holds files (the outputs are
 * being written).
 */
function interruptWhileWriting(out: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [MAIN, ...BIG, "--out", out], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const name = out.split("/").pop()!;
    const poll = setInterval(() => {
      const writing = readdirSync(dir).some((n) => n.startsWith(`.${name}.tmp-`) && readdirSync(join(dir, n)).length > 0);
      if (writing) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 5);
    child.on("error", fail);
    child.on("exit", (code, sig) => {
      clearInterval(poll);
      done({ code, signal: sig, stderr });
    });
  });
}

const leftovers = (name: string) => readdirSync(dir).filter((n) => n.startsWith(`.${name}.`));

describe("ccasim run interrupted while writing its outputs", () => {
  it("exits 143 on SIGTERM, leaving no temporary folder", async () => {
    expect(existsSync(MAIN), "run 'npm run build' first: this test runs the built CLI").toBe(true);
    const r = await interruptWhileWriting(join(dir, "term"), "SIGTERM");
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain("ccasim: interrupted (SIGTERM)");
    expect(leftovers("term")).toEqual([]);
  });

  it("leaves its temporary folder on SIGKILL, which the next run to that folder removes", async () => {
    const out = join(dir, "killed");
    const r = await interruptWhileWriting(out, "SIGKILL");
    expect(r.signal).toBe("SIGKILL");
    expect(leftovers("killed")).toHaveLength(1);
    const again = spawn(process.execPath, [MAIN, "run", "scenarios/known-models.yaml", "--quiet", "--set", "workload.iterations=2", "--out", out]);
    expect(await new Promise((done) => again.on("exit", done))).toBe(0);
    expect(leftovers("killed")).toEqual([]);
    expect(readdirSync(out)).toContain("summary.json");
  });
});
