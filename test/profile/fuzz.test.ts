import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRecordsCsv, formatRecordsJsonl, formatTauProfile, parseExtrapJson, parseExtrapJsonLines, parseExtrapText, parsePackedProfile, parseRecordsCsv, parseRecordsJsonl, parseTauProfiles, parseTauXmlProfiles, ProfileError, readTrial, Trial } from "../../index.js";
import { DATA, PPK, TAU, TAU_XML } from "./data.js";

/** Runs `parse`; passes when it returns or throws a ProfileError, fails on any other exception. */
function typedOrValid(parse: () => unknown): boolean {
  try {
    const r = parse();
    if (r instanceof Trial) {
      // A valid trial must be internally consistent enough to be used.
      expect(r.values.calls.length).toBe(r.threads.length * r.timers.length);
    }
    return true;
  } catch (e) {
    if (e instanceof ProfileError) return true;
    throw e;
  }
}

/** Line-level and character-level mutations of a text file. */
const textMutation = (text: string): fc.Arbitrary<string> => {
  const lines = text.split("\n");
  return fc.oneof(
    fc.nat(text.length).map((n) => text.slice(0, n)),
    fc.nat(lines.length - 1).map((i) => lines.filter((_, k) => k !== i).join("\n")),
    fc.nat(lines.length - 1).map((i) => lines.flatMap((l, k) => (k === i ? [l, l] : [l])).join("\n")),
    fc.tuple(fc.nat(text.length), fc.string({ minLength: 1, maxLength: 8, unit: "binary" })).map(([i, g]) => text.slice(0, i) + g + text.slice(i)),
    fc.tuple(fc.nat(text.length), fc.constantFrom("9".repeat(400), "1e999", "-1e308", "NaN", "Infinity", "99999999999999999999", '"', "\u0000", " => ", "=>", "GROUP=\"")).map(
      ([i, g]) => text.slice(0, i) + g + text.slice(i + 1),
    ),
    fc.tuple(fc.nat(lines.length - 1), fc.constantFrom("2147483647 templated_functions_MULTI_TIME", "99999999 aggregates", "4000000000 userevents", "", "#")).map(([i, l]) =>
      lines.map((x, k) => (k === i ? l : x)).join("\n"),
    ),
  );
};

const realTextFiles = [
  join(TAU, "hatchet-cpi-mpi", "profile.0.0.0"),
  join(TAU, "edge-cases/examples/workflow_consolidation/reader2_0/profile.0.0.0"),
  join(TAU, "edge-cases/examples/wrap/profile.0.0.0"),
  join(TAU, "powercap/cap100_wrapped_co8/profile.3.0.0"),
];

describe("fuzzing the readers with mutated real files", () => {
  for (const file of realTextFiles) {
    it(`TAU text: ${file.split("/tau/")[1]} gives a typed error or a valid trial`, () => {
      const text = readFileSync(file, "utf8");
      fc.assert(
        fc.property(textMutation(text), (mutated) => typedOrValid(() => parseTauProfiles([{ files: [{ path: "profile.0.0.0", text: mutated }] }]))),
        { numRuns: 150, seed: 11 },
      );
    });
  }

  it("ParaProf .ppk: mutated decompressed and compressed bytes give a typed error or a valid trial", () => {
    const gz = readFileSync(join(PPK, "xgc-nosamples.ppk"));
    const raw = new Uint8Array(gunzipSync(gz));
    const bytesMutation = (b: Uint8Array) =>
      fc.oneof(
        fc.nat(b.length).map((n) => b.slice(0, n)),
        fc.tuple(fc.nat(b.length - 1), fc.integer({ min: 0, max: 255 })).map(([i, v]) => {
          const c = b.slice();
          c[i] = v;
          return c;
        }),
        fc.tuple(fc.nat(b.length - 4), fc.constantFrom(0x7fffffff, -1, 0x10000, 0x7ff00000)).map(([i, v]) => {
          const c = b.slice();
          new DataView(c.buffer).setInt32(i, v);
          return c;
        }),
        fc.tuple(fc.nat(b.length), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([i, g]) => {
          const c = new Uint8Array(b.length + g.length);
          c.set(b.subarray(0, i));
          c.set(g, i);
          c.set(b.subarray(i), i + g.length);
          return c;
        }),
      );
    fc.assert(fc.property(bytesMutation(raw), (m) => typedOrValid(() => parsePackedProfile(m, "x.ppk"))), { numRuns: 300, seed: 5 });
    fc.assert(fc.property(bytesMutation(new Uint8Array(gz)), (m) => typedOrValid(() => parsePackedProfile(m, "x.ppk"))), { numRuns: 100, seed: 6 });
  });

  it("TAU XML: a mutated merged profile gives a typed error or a valid trial", () => {
    const text = readFileSync(join(TAU_XML, "metadata-correlation.xml"), "utf8");
    // Its first rank's documents (the definitions, rank 1's thread and profile) keep each run short.
    const head = text.slice(0, text.indexOf("</profile_xml>", text.indexOf("<profile thread=")) + 15);
    const xml = fc.tuple(fc.nat(head.length), fc.constantFrom("<", ">", "</profile>", "<profile_xml>", "&", "&#0;", "&#x110000;", "<![CDATA[", "]]>", '"', "<!--", "id=\"-1\"", "metrics=\"9\"", " 1e999", " -3")).map(([i, g]) => head.slice(0, i) + g + head.slice(i));
    fc.assert(fc.property(fc.oneof(textMutation(head), xml), (m) => typedOrValid(() => parseTauXmlProfiles([{ path: "tauprofile.xml", text: m }]))), { numRuns: 300, seed: 13 });
  });

  it("Extra-P text, JSON and JSON Lines give a typed error or a valid experiment", () => {
    const ex = join(DATA, "extrap");
    const cases: [string, (t: string) => unknown][] = [
      ["tests_data_text_one_parameter_2.txt", (t) => parseExtrapText(t, "f.txt")],
      ["docs_examples_input.txt", (t) => parseExtrapText(t, "f.txt")],
      ["tests_data_json_new_input1.json", (t) => parseExtrapJson(t, "f.json")],
      ["tests_data_jsonlines_extended2.jsonl", (t) => parseExtrapJsonLines(t, "f.jsonl")],
    ];
    for (const [name, parse] of cases) {
      const text = readFileSync(join(ex, name), "utf8");
      fc.assert(fc.property(textMutation(text), (m) => typedOrValid(() => parse(m))), { numRuns: 100, seed: 3 });
    }
  });

  it("TAU text, several metrics: one mutated metric file gives a typed error or a valid trial", () => {
    const files = formatTauProfile(readTrial(join(PPK, "xgc-nosamples.ppk")));
    const sets = new Map<string, { path: string; text: string }[]>();
    for (const f of files.filter((x) => /profile\.[0-3]\.0\.0$/.test(x.path))) {
      const folder = f.path.split("/")[0];
      sets.set(folder, [...(sets.get(folder) ?? []), f]);
    }
    const all = [...sets.entries()].map(([folder, fs]) => ({ folder, files: fs }));
    const target = all[2].files[1];
    fc.assert(
      fc.property(textMutation(target.text), (mutated) =>
        typedOrValid(() => parseTauProfiles(all.map((s) => ({ folder: s.folder, files: s.files.map((f) => (f === target ? { path: f.path, text: mutated } : f)) })))),
      ),
      { numRuns: 60, seed: 8 },
    );
  });

  it("records CSV and JSON Lines give a typed error or valid records", () => {
    const recs = Array.from({ length: 6 }, (_, i) => ({
      component: i % 2 ? "EFMFlux" : 'States "x", y',
      port: "p",
      method: "compute",
      rank: i % 3,
      parameters: { Q: 2 ** (i + 8), mode: i % 2 ? "seq" : "strided" },
      start: i * 1000.5,
      wallTime: 800 + i,
      mpiTime: i,
      computeTime: 800,
      counters: { PAPI_FP_INS: 1e6 * i },
    }));
    const csv = formatRecordsCsv(recs);
    const jsonl = formatRecordsJsonl(recs);
    fc.assert(fc.property(textMutation(csv), (m) => typedOrValid(() => parseRecordsCsv(m, "r.csv"))), { numRuns: 150, seed: 21 });
    fc.assert(fc.property(textMutation(jsonl), (m) => typedOrValid(() => parseRecordsJsonl(m, "r.jsonl"))), { numRuns: 150, seed: 22 });
  });
});
