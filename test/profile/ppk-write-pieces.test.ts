import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";

// Every piece the atomic writer writes, by size: what the packed-profile writer holds at a time.
const written: number[] = [];
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return {
    ...real,
    writeSync: (fd: number, buffer: Uint8Array, ...rest: number[]) => {
      written.push(buffer.length);
      return (real.writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
    },
  };
});

const { formatPackedProfile, parsePackedProfile, TrialBuilder, writePackedProfile } = await import("../../index.js");

const scratch = mkdtempSync(join(tmpdir(), "ccasim-ppk-pieces-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("writePackedProfile", () => {
  it("compresses and writes the file a piece at a time, not the whole file at once; the file reads as one gzip stream", () => {
    // 64 threads x 2000 timers x 2 metrics of random values: about 6.7 MB before compression, and
    // barely compressible.
    const b = new TrialBuilder({ metrics: ["TIME", "PAPI_TOT_INS"] });
    const timers = Array.from({ length: 2000 }, (_, k) => b.timer(`routine_${k}`, ["TAU_USER"]));
    let x = 12345;
    const rnd = (): number => (x = (x * 48271) % 2147483647) / 2147483647;
    for (let t = 0; t < 64; t++) {
      const th = b.addThread(t);
      for (const k of timers) {
        const excl = [rnd() * 1e6, rnd() * 1e9];
        b.setValues(th, k, { calls: Math.floor(rnd() * 1000), subroutines: 0, exclusive: excl, inclusive: excl.map((v) => v + rnd() * 1e3) });
      }
    }
    const trial = b.build();
    const out = join(scratch, "big.ppk");
    written.length = 0;
    writePackedProfile(trial, out);
    const raw = gunzipSync(readFileSync(out));
    expect(raw.length).toBeGreaterThan(6e6);
    expect(written.length).toBeGreaterThan(4);
    expect(Math.max(...written)).toBeLessThan(1.5 * 2 ** 20);
    expect(Buffer.compare(raw, gunzipSync(formatPackedProfile(trial)))).toBe(0);
    const back = parsePackedProfile(readFileSync(out), "big.ppk");
    expect([back.threads.length, back.timers.length, back.values.exclusive[1][64 * 2000 - 1]]).toEqual([64, 2000, trial.values.exclusive[1][64 * 2000 - 1]]);
  });
});
