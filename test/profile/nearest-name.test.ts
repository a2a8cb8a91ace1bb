import { describe, expect, it } from "vitest";
import { nearestName as profileNearest } from "../../profile/internal.js";
import { nearestName as engineNearest } from "../../engine/index.js";

// profile/ and engine/ each keep a copy (neither layer may import the other): both must suggest alike.
const CASES: [string, string[], string | undefined][] = [
  ["Flx", ["Flux", "Mesh"], "Flux"],
  ["B", ["A", "C"], undefined],
  ["xy", ["ab"], undefined],
  ["S3", ["S1", "T1"], "S1"],
  ["B", ["AB"], "AB"],
  ["iteration", ["x", "iterations"], "iterations"],
  ["zzzzzz", ["alpha", "beta"], undefined],
  ["itan", ["itanium2-madison", "xeon-2.8ghz-512k"], "itanium2-madison"],
  // Two letters swapped are one typo: nearer than two letters replaced.
  ["cots", ["action", "code", "cost", "unit"], "cost"],
  ["bcsat", ["barrier", "bcast", "reduce"], "bcast"],
];

describe("name suggestions", () => {
  it("suggests the same likely typo in profile/ as in engine/, and none that replaces the whole word", () => {
    for (const [word, names, expected] of CASES) {
      expect([word, profileNearest(word, names)]).toEqual([word, expected]);
      expect([word, engineNearest(word, names)]).toEqual([word, expected]);
    }
  });
});
