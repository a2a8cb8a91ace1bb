import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../cli/main.js";
import { detectTrialFormat, formatCubeProfile, parseCubeProfile, ProfileError, ProfileFormatError, readTrial, Trial, TrialBuilder } from "../../index.js";
import { CUBE, PPK, TAU } from "./data.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-cube-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A ustar archive of `members` (the checksum field left blank: the reader does not verify it, as CubeLib 4.8 wrote some wrong). */
function tar(members: [string, Uint8Array][]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, data] of members) {
    const h = new Uint8Array(512);
    h.set(Buffer.from(name), 0);
    h.set(Buffer.from(`${data.length.toString(8).padStart(11, "0")}\0`), 124);
    h[156] = 0x30;
    h.set(Buffer.from("ustar\0" + "00"), 257);
    blocks.push(h, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return Buffer.concat(blocks);
}

/** `CUBEX.INDEX` of positions, little-endian. */
function index(positions: number[]): Uint8Array {
  const b = Buffer.alloc(22 + 4 * positions.length);
  b.write("CUBEX.INDEX", 0, "latin1");
  b.writeInt32LE(1, 11);
  b.writeInt16LE(0, 15);
  b.writeUInt8(1, 17);
  b.writeInt32LE(positions.length, 18);
  positions.forEach((p, i) => b.writeInt32LE(p, 22 + 4 * i));
  return b;
}

/** `CUBEX.DATA` of doubles, or of unsigned 64-bit counts. */
function data(values: number[], uint64 = false): Uint8Array {
  const b = Buffer.alloc(10 + 8 * values.length);
  b.write("CUBEX.DATA", 0, "latin1");
  values.forEach((v, i) => (uint64 ? b.writeBigUInt64LE(BigInt(v), 10 + 8 * i) : b.writeDoubleLE(v, 10 + 8 * i)));
  return b;
}

/** The same values as `ZCUBEX.DATA`: one zlib segment per call node. */
function zdata(values: number[], locations: number): Uint8Array {
  const n = values.length / locations;
  const segments = Array.from({ length: n }, (_, i) => deflateSync(Buffer.from(new Float64Array(values.slice(i * locations, (i + 1) * locations)).buffer)));
  const head = Buffer.alloc(19 + 24 * n);
  head.write("ZCUBEX.DATA", 0, "latin1");
  head.writeBigInt64LE(BigInt(n), 11);
  let at = 0;
  segments.forEach((s, i) => {
    head.writeBigInt64LE(BigInt(i * locations * 8), 19 + 24 * i);
    head.writeBigInt64LE(BigInt(at), 19 + 24 * i + 8);
    head.writeBigInt64LE(BigInt(s.length), 19 + 24 * i + 16);
    at += s.length;
  });
  return Buffer.concat([head, ...segments]);
}

/**
 * An anchor of main (region 1) calling solve (2, which recurses once into itself) and MPI_Send (3),
 * two processes of one thread each: cnodes 0 main, 1 solve, 2 solve (recursive), 3 MPI_Send.
 */
const ANCHOR = `<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.4">
<attr key="Creator" value="Score-P test"/>
<metrics>
<metric id="0" type="EXCLUSIVE"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>UINT64</dtype><uom>occ</uom></metric>
<metric id="1" type="INCLUSIVE"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric>
<metric id="2" type="EXCLUSIVE"><disp_name>Minimum Inclusive Time</disp_name><uniq_name>min_time</uniq_name><dtype>MINDOUBLE</dtype><uom>sec</uom></metric>
</metrics>
<program>
<region id="1" mod="m.c" begin="1" end="9"><name>main</name><paradigm>compiler</paradigm><role>function</role></region>
<region id="2" mod="m.c" begin="10" end="19"><name>solve&lt;double&gt;</name><paradigm>user</paradigm><role>function</role></region>
<region id="3" mod="" begin="-1" end="-1"><name>MPI_Send</name><paradigm>mpi</paradigm><role>point2point</role></region>
<cnode id="0" calleeId="1">
<cnode id="1" calleeId="2">
<cnode id="2" calleeId="2"/>
</cnode>
<cnode id="3" calleeId="3"><parameter partype="numeric" parkey="bytes" parvalue="64"/></cnode>
</cnode>
</program>
<system>
<systemtreenode Id="0"><name>machine</name><class>machine</class>
<locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>
<location Id="0"><name>Master thread</name><rank>0</rank><type>thread</type></location></locationgroup>
<locationgroup Id="1"><name>MPI Rank 1</name><rank>1</rank><type>process</type>
<location Id="1"><name>Master thread</name><rank>0</rank><type>thread</type></location></locationgroup>
</systemtreenode>
</system>
</cube>
`;

// Visits (exclusive, preorder 0 1 2 3), per location: main 1, solve 10, inner solve 5 (rank 1 never), MPI_Send 4.
const VISITS = [1, 1, 10, 10, 5, 0, 4, 4];
// Inclusive time (seconds), in CubeLib's inclusive enumeration: 0 main, 1 solve, 3 MPI_Send (main's children), 2 inner solve.
const TIME_WIDE = [10, 12, 6, 8, 2, 3, 1, 0];

function cube(overrides: Partial<Record<string, Uint8Array>> = {}): Uint8Array {
  const members: Record<string, Uint8Array> = {
    "anchor.xml": Buffer.from(ANCHOR),
    "0.index": index([0, 1, 2, 3]),
    "0.data": data(VISITS, true),
    "1.index": index([0, 1, 2, 3]),
    "1.data": data(TIME_WIDE),
    "2.index": index([0]),
    "2.data": data([1, 1]),
    ...overrides,
  };
  return tar(Object.entries(members).filter((e): e is [string, Uint8Array] => e[1] !== undefined));
}

/** ANCHOR with `threads` OpenMP threads in one process instead of two processes. */
function threadedAnchor(threads: number): string {
  const locations = Array.from({ length: threads }, (_, i) => `<location Id="${i}"><name>thread ${i}</name><rank>${i}</rank><type>thread</type></location>`).join("\n");
  return ANCHOR.replace(/<locationgroup Id="0">[\s\S]*<\/systemtreenode>/, `<locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>\n${locations}</locationgroup>\n</systemtreenode>`);
}

function errorOf(bytes: Uint8Array): ProfileFormatError {
  try {
    parseCubeProfile(bytes, "p.cubex");
  } catch (e) {
    return e as ProfileFormatError;
  }
  throw new Error("no error");
}

describe("CUBE4 profiles: what a call tree becomes", () => {
  const t = parseCubeProfile(cube(), "p.cubex");

  it("makes callpath and flat timers, calls from visits, subroutines from the children's visits", () => {
    expect(t.timers.map((x) => x.name).sort()).toEqual(
      ["MPI_Send [ <bytes> = <64> ]", "main", "main => MPI_Send [ <bytes> = <64> ]", "main => solve<double>", "main => solve<double> => solve<double>", "solve<double>"].sort(),
    );
    const main = t.timer("main").index;
    expect([t.calls(0, main), t.subroutines(0, main)]).toEqual([1, 14]);
    expect(t.timer("MPI_Send [ <bytes> = <64> ]").groups).toEqual(["MPI"]);
    // Rank 1 never entered the inner solve: no value there, not a zero row.
    const inner = t.findCallpath(["main", "solve<double>", "solve<double>"])!.index;
    expect(t.values.present[0 * t.timers.length + inner]).toBe(1);
    expect(t.values.present[1 * t.timers.length + inner]).toBe(0);
  });

  it("converts the stored inclusive time (CubeLib's enumeration) to exclusive and inclusive microseconds", () => {
    const T = t.metricIndex("TIME");
    const solve = t.findCallpath(["main", "solve<double>"])!.index;
    const send = t.findCallpath(["main", "MPI_Send [ <bytes> = <64> ]"])!.index;
    // Rank 0: main 10 s, solve 6 s (of which 1 s inner), MPI_Send 2 s.
    expect([t.inclusive(T, 0, t.timer("main").index), t.exclusive(T, 0, t.timer("main").index)]).toEqual([10e6, 2e6]);
    expect([t.inclusive(T, 0, solve), t.exclusive(T, 0, solve)]).toEqual([6e6, 5e6]);
    expect(t.inclusive(T, 0, send)).toBe(2e6);
    // The flat solve: exclusive of both calls, inclusive of the outermost only (TAU's rule for recursion).
    const flat = t.timer("solve<double>").index;
    expect([t.exclusive(T, 0, flat), t.inclusive(T, 0, flat), t.calls(0, flat)]).toEqual([6e6, 6e6, 15]);
  });

  it("gives a parameter-profiled call node below a node of its region the flat inclusive value of a timer of its own", () => {
    // Score-P places a parameter's call node below the call node of its region: solve => solve [n=4].
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(ANCHOR.replace('<cnode id="2" calleeId="2"/>', '<cnode id="2" calleeId="2"><parameter partype="numeric" parkey="n" parvalue="4"/></cnode>')) }), "p.cubex");
    const T = p.metricIndex("TIME");
    const param = p.timer("solve<double> [ <n> = <4> ]").index;
    expect([p.exclusive(T, 0, param), p.inclusive(T, 0, param), p.calls(0, param)]).toEqual([1e6, 1e6, 5]);
    const solve = p.timer("solve<double>").index;
    expect([p.exclusive(T, 0, solve), p.inclusive(T, 0, solve), p.calls(0, solve)]).toEqual([5e6, 6e6, 10]);
  });

  it("counts the outermost call of two regions of one name in the flat inclusive value", () => {
    // The inner solve is another region (id 4) of the same name: one flat timer, called recursively.
    const other = ANCHOR.replace('<cnode id="2" calleeId="2"/>', '<cnode id="2" calleeId="4"/>').replace("</program>", '<region id="4" mod="n.c" begin="1" end="9"><name>solve&lt;double&gt;</name><paradigm>user</paradigm></region>\n</program>');
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(other) }), "p.cubex");
    const flat = p.timer("solve<double>").index;
    expect(p.inclusive(p.metricIndex("TIME"), 0, flat)).toBe(t.inclusive(t.metricIndex("TIME"), 0, t.timer("solve<double>").index));
  });

  it("gives an unsigned count's exclusive value as 0 where its children's inclusive counts exceed the node's, as pycubexr does", () => {
    // A hardware counter's wrapped difference is read as 0, leaving main's inclusive count (4 on rank 0) below its children's (3 + 2).
    const withCounter = ANCHOR.replace("</metrics>", '<metric id="3" type="INCLUSIVE"><uniq_name>PAPI_L2_DCM</uniq_name><dtype>UINT64</dtype><uom>#</uom></metric>\n</metrics>');
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(withCounter), "3.index": index([0, 1, 2, 3]), "3.data": data([4, 10, 3, 5, 2, 1, 1, 0], true) }), "p.cubex");
    const m = p.metricIndex("PAPI_L2_DCM");
    const main = p.timer("main").index;
    expect([p.exclusive(m, 0, main), p.inclusive(m, 0, main)]).toEqual([0, 4]);
    expect([p.exclusive(m, 1, main), p.inclusive(m, 1, main)]).toEqual([4, 10]);
  });

  it("adds up sibling call nodes of one call path (one region called from two call sites) in one callpath timer", () => {
    const twice = ANCHOR.replace('<cnode id="3" calleeId="3"><parameter partype="numeric" parkey="bytes" parvalue="64"/></cnode>', '<cnode id="3" calleeId="2"/>');
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(twice) }), "p.cubex");
    const T = p.metricIndex("TIME");
    const solve = p.findCallpath(["main", "solve<double>"])!.index;
    expect([p.calls(0, solve), p.inclusive(T, 0, solve), p.exclusive(T, 0, solve)]).toEqual([14, 8e6, 7e6]);
    const flat = p.timer("solve<double>").index;
    // Both outermost calls count in the flat inclusive value, the nested one does not.
    expect([p.calls(0, flat), p.inclusive(T, 0, flat), p.exclusive(T, 0, flat)]).toEqual([19, 8e6, 8e6]);
  });

  it("keeps a thread's values on a node it never visited (an OpenMP worker's, above its parallel region)", () => {
    const worker = parseCubeProfile(cube({ "0.data": data([1, 0, 10, 10, 5, 0, 4, 4], true) }), "w.cubex");
    const main = worker.timer("main").index;
    expect([worker.calls(1, main), worker.inclusive(0, 1, main)]).toEqual([0, 12e6]);
  });

  it("takes a parameter-profiled call of a region within another of other parameters as no recursion", () => {
    // solve [ <n> = <2> ] inside solve [ <n> = <1> ]: two flat timers, each with its inclusive value.
    const nested = ANCHOR.replace('<cnode id="1" calleeId="2">', '<cnode id="1" calleeId="2"><parameter partype="numeric" parkey="n" parvalue="1"/>').replace('<cnode id="2" calleeId="2"/>', '<cnode id="2" calleeId="2"><parameter partype="numeric" parkey="n" parvalue="2"/></cnode>');
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(nested) }), "n.cubex");
    const T = p.metricIndex("TIME");
    expect(p.inclusive(T, 0, p.timer("solve<double> [ <n> = <1> ]").index)).toBe(6e6);
    expect(p.inclusive(T, 0, p.timer("solve<double> [ <n> = <2> ]").index)).toBe(1e6);
  });

  it("leaves out the metrics whose values do not add up, and names them", () => {
    expect(t.metrics).toEqual(["TIME"]);
    expect(t.metadata.get("CUBE metrics not read")).toBe("min_time (MINDOUBLE)");
  });

  it("names the derived metrics it does not read, and leaves out a metric without data files", () => {
    const derived = ANCHOR.replace("</metrics>", '<metric id="3" type="POSTDERIVED"><uniq_name>execution</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom><cubepl>metric::time()</cubepl></metric>\n<metric id="4" type="EXCLUSIVE"><uniq_name>bytes_put</uniq_name><dtype>UINT64</dtype><uom>bytes</uom></metric>\n</metrics>');
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(derived) }), "p.cubex");
    expect(p.metrics).toEqual(["TIME"]);
    expect(p.metadata.get("CUBE metrics not read")).toBe("min_time (MINDOUBLE), execution (POSTDERIVED)");
  });

  it("reads compressed data (ZCUBEX.DATA) and a gzip-compressed archive the same", () => {
    const z = parseCubeProfile(gzipSync(cube({ "1.data": zdata(TIME_WIDE, 2) })), "z.cubex");
    expect(Array.from(z.values.inclusive[0])).toEqual(Array.from(t.values.inclusive[0]));
    expect(Array.from(z.values.calls)).toEqual(Array.from(t.values.calls));
  });

  it("reads a dense index (CubeLib's C++ writer's, for an inclusive metric): values for every call node in the metric's enumeration", () => {
    const dense = Buffer.from(index([])).subarray(0, 18);
    dense.writeUInt8(3, 17);
    const d = parseCubeProfile(cube({ "1.index": dense }), "d.cubex");
    expect(Array.from(d.values.inclusive[0])).toEqual(Array.from(t.values.inclusive[0]));
    expect(errorOf(cube({ "1.index": dense, "1.data": data(TIME_WIDE.slice(2)) })).message).toMatch(/^p\.cubex \(1\.data\): metric 'time': 48 bytes of values where 4 call nodes x 2 locations x 8 bytes \(64\) belong$/);
  });

  it("reads a big-endian file by its byte-order mark", () => {
    const be = (b: Uint8Array, width: number, from: number): Uint8Array => {
      const c = Buffer.from(b);
      for (let at = from; at + width <= c.length; at += width) c.subarray(at, at + width).reverse();
      return c;
    };
    const bigIndex = (positions: number[]): Uint8Array => {
      const b = Buffer.from(index(positions));
      b.writeInt32BE(1, 11);
      b.writeInt16BE(0, 15);
      b.writeInt32BE(positions.length, 18);
      positions.forEach((p, i) => b.writeInt32BE(p, 22 + 4 * i));
      return b;
    };
    const big = parseCubeProfile(cube({ "0.index": bigIndex([0, 1, 2, 3]), "0.data": be(data(VISITS, true), 8, 10), "1.index": bigIndex([0, 1, 2, 3]), "1.data": be(data(TIME_WIDE), 8, 10), "2.index": undefined, "2.data": undefined }), "be.cubex");
    expect(Array.from(big.values.inclusive[0])).toEqual(Array.from(t.values.inclusive[0]));
  });
});

describe("CUBE4 profiles: many threads", () => {
  it("resolves each call node's timers once, not once per thread", () => {
    const L = 64;
    const visits = Array.from({ length: 4 * L }, (_, i) => 1 + (i % 3));
    const time = Array.from({ length: 4 * L }, (_, i) => [10, 6, 2, 1][Math.floor(i / L)]);
    const bytes = cube({ "anchor.xml": Buffer.from(threadedAnchor(L)), "0.data": data(visits, true), "1.data": data(time), "2.index": undefined, "2.data": undefined });
    const timer = vi.spyOn(TrialBuilder.prototype, "timer");
    try {
      const t = parseCubeProfile(bytes, "omp.cubex");
      expect(t.threads.length).toBe(L);
      expect(t.calls(L - 1, t.timer("main").index)).toBe(visits[L - 1]);
      // Four call nodes: a flat and (below the root) a callpath timer each.
      expect(timer.mock.calls.length).toBeLessThanOrEqual(7);
    } finally {
      timer.mockRestore();
    }
  });
});

describe("CUBE4 profiles: locations as threads", () => {
  it("gives a location whose rank and position in its process are both taken the next free thread number", () => {
    // Threads listed out of order, then a stream of rank 1: ranks 2, 1, 1 at positions 0, 1, 2.
    const locations = [2, 1, 1].map((rank, i) => `<location Id="${i}"><name>${i === 2 ? "CUDA stream" : `thread ${rank}`}</name><rank>${rank}</rank><type>${i === 2 ? "gpu" : "thread"}</type></location>`).join("\n");
    const anchor = ANCHOR.replace(/<locationgroup Id="0">[\s\S]*<\/systemtreenode>/, `<locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>\n${locations}</locationgroup>\n</systemtreenode>`);
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(anchor), "0.data": data([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3], true), "1.data": data([10, 10, 10, 6, 6, 6, 2, 2, 2, 1, 1, 1]), "2.index": undefined, "2.data": undefined }), "gpu.cubex");
    expect(p.threads.map((x) => x.thread)).toEqual([1, 2, 3]);
    expect(p.threadMetadata[p.threadIndex(0, 0, 3)].get("CUBE location")).toBe("CUDA stream");
    expect(p.calls(p.threadIndex(0, 0, 3), p.timer("main").index)).toBe(3);
  });

  it("keeps each OpenMP thread's number when a stream of a taken rank comes before it", () => {
    // Master thread (rank 0), a GPU stream of rank 0, OpenMP thread 1: the stream must not take thread 1.
    const ranks = [0, 0, 1];
    const locations = ranks.map((rank, i) => `<location Id="${i}"><name>${i === 1 ? "CUDA stream" : `thread ${rank}`}</name><rank>${rank}</rank><type>${i === 1 ? "accelerator stream" : "thread"}</type></location>`).join("\n");
    const anchor = ANCHOR.replace(/<locationgroup Id="0">[\s\S]*<\/systemtreenode>/, `<locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>\n${locations}</locationgroup>\n</systemtreenode>`);
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(anchor), "0.data": data([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3], true), "1.data": data([10, 10, 10, 6, 6, 6, 2, 2, 2, 1, 1, 1]), "2.index": undefined, "2.data": undefined }), "gpu.cubex");
    expect(p.threadMetadata[p.threadIndex(0, 0, 1)].get("CUBE location")).toBe("thread 1");
    expect(p.threadMetadata[p.threadIndex(0, 0, 2)].get("CUBE location")).toBe("CUDA stream");
  });

  it("refuses a value that is not a finite number, naming the member and the call node", () => {
    expect(errorOf(cube({ "1.data": data([10, 12, NaN, 8, 2, 3, 1, 0]) })).message).toBe("p.cubex (1.data): metric 'time': the value of call node 1 at location 0 is NaN, not a finite number");
  });
});

describe("CUBE4 profiles: deep trees", () => {
  it("reads a call tree deeper than the stack would allow a recursive walk (main calling solve 3000 levels deep)", () => {
    const D = 3000;
    const chain = `<cnode id="0" calleeId="1">${Array.from({ length: D - 1 }, (_, i) => `<cnode id="${i + 1}" calleeId="2">`).join("")}${"</cnode>".repeat(D)}`;
    const anchor = ANCHOR.replace(/<cnode id="0"[\s\S]*<\/program>/, `${chain}\n</program>`);
    const positions = Array.from({ length: D }, (_, i) => i);
    // Inclusive time D - i seconds at depth i, on both ranks; one visit each.
    const time = positions.flatMap((i) => [D - i, D - i]);
    const p = parseCubeProfile(cube({ "anchor.xml": Buffer.from(anchor), "0.index": index(positions), "0.data": data(positions.flatMap(() => [1, 1]), true), "1.index": index(positions), "1.data": data(time) }), "deep.cubex");
    const T = p.metricIndex("TIME");
    const solve = p.timer("solve<double>").index;
    // The flat solve: every call's exclusive second, the outermost call's inclusive time.
    expect([p.calls(0, solve), p.exclusive(T, 0, solve), p.inclusive(T, 0, solve)]).toEqual([D - 1, (D - 1) * 1e6, (D - 1) * 1e6]);
  });

  it("refuses metrics nested deeper than it reads, naming the line", () => {
    const nest = `${'<metric id="9" type="EXCLUSIVE"><uniq_name>m</uniq_name><dtype>DOUBLE</dtype>'.repeat(300)}${"</metric>".repeat(300)}`;
    const e = errorOf(cube({ "anchor.xml": Buffer.from(ANCHOR.replace("</metrics>", `${nest}\n</metrics>`)) }));
    expect(e).toBeInstanceOf(ProfileFormatError);
    expect(e.message).toMatch(/^p\.cubex \(anchor\.xml\):8: <metric> nested deeper than 256 levels$/);
  });
});

describe("CUBE4 profiles: malformed input is named by file, member and line", () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ["no anchor.xml", cube({ "anchor.xml": undefined }), /^p\.cubex: no anchor\.xml in the archive: not a CUBE4 profile$/],
    ["a cnode calling an undefined region", cube({ "anchor.xml": Buffer.from(ANCHOR.replace('calleeId="3"', 'calleeId="9"')) }), /^p\.cubex \(anchor\.xml\):17: cnode 3 calls region 9, which no <region> defines$/],
    ["a mismatched tag", cube({ "anchor.xml": Buffer.from(ANCHOR.replace("</program>", "</programme>")) }), /^p\.cubex \(anchor\.xml\):\d+: <\/programme> where <\/program> was expected$/],
    ["too few values", cube({ "1.data": data(TIME_WIDE.slice(1)) }), /^p\.cubex \(1\.data\): metric 'time': 56 bytes of values where 4 call nodes x 2 locations x 8 bytes \(64\) belong$/],
    ["an index position outside the tree", cube({ "1.index": index([0, 1, 2, 7]) }), /^p\.cubex \(1\.index\): metric 'time': position 7 is outside the call tree's 4 nodes$/],
    ["an index without its header", cube({ "1.index": Buffer.from("garbage") }), /\(1\.index\): metric 'time': no CUBEX\.INDEX header/],
    ["an index without its data", cube({ "1.data": undefined }), /^p\.cubex \(1\.index\): metric 'time': the archive has no 1\.data to go with it$/],
    ["a member running past the end", cube().subarray(0, 1600), /^p\.cubex \(byte \d+\): not a readable tar archive: member '.*' of \d+ bytes runs past the end/],
    ["corrupt compressed data", cube({ "1.data": Buffer.concat([Buffer.from(zdata(TIME_WIDE, 2)).subarray(0, 19 + 24 * 4), Buffer.alloc(40, 7)]) }), /\(1\.data\): metric 'time': segment 0 (is not zlib data|of \d+ bytes runs past the end)/],
  ];
  for (const [what, bytes, message] of cases) {
    it(`refuses ${what}`, () => {
      const e = errorOf(bytes);
      expect(e).toBeInstanceOf(ProfileFormatError);
      expect(e.message).toMatch(message);
    });
  }

  it("gives a typed error or a valid trial on mutated archives", () => {
    const good = cube();
    const mutation = fc.oneof(
      fc.nat(good.length).map((n) => good.slice(0, n)),
      fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })).map(([i, v]) => {
        const c = good.slice();
        c[i] = v;
        return c;
      }),
    );
    fc.assert(
      fc.property(mutation, (m) => {
        try {
          const r = parseCubeProfile(m, "m.cubex");
          expect(r).toBeInstanceOf(Trial);
        } catch (e) {
          if (!(e instanceof ProfileError)) throw e;
        }
      }),
      { numRuns: 400, seed: 17 },
    );
  });
});

describe("CUBE4 profiles written", () => {
  /** Every timer's calls and inclusive and exclusive values of `b` against `a`'s, by name and thread. */
  function sameValues(a: Trial, b: Trial): void {
    expect(b.timers.map((x) => x.name).sort()).toEqual(a.timers.map((x) => x.name).sort());
    expect([...b.metrics].sort()).toEqual([...a.metrics].sort());
    for (const timer of a.timers) {
      const other = b.timer(timer.name).index;
      for (let th = 0; th < a.threads.length; th++) {
        const tb = b.threadIndex(a.threads[th].node, a.threads[th].context, a.threads[th].thread);
        expect(b.calls(tb, other), `${timer.name} calls`).toBe(a.calls(th, timer.index));
        for (let m = 0; m < a.metrics.length; m++) {
          const mb = b.metricIndex(a.metrics[m]);
          expect(b.inclusive(mb, tb, other), `${timer.name} ${a.metrics[m]} inclusive`).toBeCloseTo(a.inclusive(m, th, timer.index), 6);
        }
      }
    }
  }

  it("read back give the trial they were written from: a Score-P profile, and a TAU profile of whole callpaths", () => {
    for (const source of [join(CUBE, "time.p4.n2000.x1.r0", "profile.cubex"), join(CUBE, "kripke.p8.d2.g32.r1", "profile.cubex"), join(TAU, "hatchet-cpi-mpi")]) {
      const a = readTrial(source);
      const bytes = formatCubeProfile(a);
      const b = parseCubeProfile(bytes, "written.cubex");
      sameValues(a, b);
      // The same trial gives the same bytes.
      expect(Buffer.compare(Buffer.from(formatCubeProfile(readTrial(source))), Buffer.from(bytes))).toBe(0);
    }
  });

  it("stores fractional calls or counts as doubles", () => {
    const b = new TrialBuilder({ metrics: ["TIME", "PAPI_FP_OPS"] });
    const th = b.addThread(0);
    b.addCallpathValues(th, ["main"], { calls: 1, subroutines: 1.5, exclusive: [10, 2.5], inclusive: [20, 5] });
    b.addCallpathValues(th, ["main", "f"], { calls: 1.5, subroutines: 0, exclusive: [10, 2.5], inclusive: [10, 2.5] });
    const back = parseCubeProfile(formatCubeProfile(b.build()), "f.cubex");
    const f = back.findCallpath(["main", "f"])!.index;
    expect([back.calls(0, f), back.inclusive(back.metricIndex("PAPI_FP_OPS"), 0, f), back.inclusive(back.metricIndex("PAPI_FP_OPS"), 0, back.timer("main").index)]).toEqual([1.5, 2.5, 5]);
  });

  it("refuses a trial without a whole call tree: a flat profile, or depth-limited callpaths", () => {
    expect(() => formatCubeProfile(readTrial(join(TAU, "powercap", "cap50_wrapped_am8")))).toThrow("a CUBE4 profile needs a call tree: this trial is a flat profile (it records no callpath)");
    expect(() => formatCubeProfile(readTrial(join(PPK, "wrf-callpath.ppk")))).toThrow(/a CUBE4 profile needs a whole call tree: this trial's callpaths are depth-limited/);
  });
});

describe("ccasim with CUBE4 profiles", () => {
  async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = "";
    let err = "";
    const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  }

  it("recognises a .cubex by its content under another name, and converts one to a TAU profile that reads back the same", async () => {
    const renamed = join(scratch, "renamed.profile");
    writeFileSync(renamed, readFileSync(join(CUBE, "call_tree_test", "call_tree_test.cubex")));
    expect(detectTrialFormat(renamed)).toBe("cube");
    // Compressed as well (a .cubex.gz renamed): not taken for a gzip-compressed .ppk.
    const gz = join(scratch, "renamed.gz");
    writeFileSync(gz, gzipSync(readFileSync(join(CUBE, "call_tree_test", "call_tree_test.cubex"))));
    expect(detectTrialFormat(gz)).toBe("cube");
    expect(readTrial(gz).timers.length).toBe(readTrial(renamed).timers.length);
    const out = join(scratch, "tau");
    expect((await run("profile", "convert", join(CUBE, "time.p4.n2000.x1.r0", "profile.cubex"), out, "--exact-time")).code).toBe(0);
    const a = readTrial(join(CUBE, "time.p4.n2000.x1.r0", "profile.cubex"));
    const b = readTrial(out);
    expect(b.timers.map((x) => x.name).sort()).toEqual(a.timers.map((x) => x.name).sort());
    expect([...b.metrics].sort()).toEqual([...a.metrics].sort());
    for (const timer of a.timers) {
      const other = b.timer(timer.name).index;
      for (let th = 0; th < a.threads.length; th++) {
        expect(b.calls(th, other)).toBe(a.calls(th, timer.index));
        for (let m = 0; m < a.metrics.length; m++) expect(b.inclusive(b.metricIndex(a.metrics[m]), th, other)).toBeCloseTo(a.inclusive(m, th, timer.index), 6);
      }
    }
  });

  it("fits a timer across a set of Score-P runs, Q from each run's folder name, to Extra-P's model", async () => {
    const files = ["1", "10", "25", "50", "100", "250", "500", "1000", "2000"].map((x) => join(CUBE, "single_parameter", `mm.x${x}y1z1.r1`, "profile.cubex"));
    const r = await run("fit", ...files, "--timer", "mat_mul", "--q", "path:mm\\.x(\\d+)y", "--json");
    expect(r.code).toBe(0);
    type Fit = { points: { q: number; mean: number }[]; mean: { label: string; coefficients: { value: number }[]; looSmape: number; looAdjustedR2: number } };
    const [fit] = JSON.parse(r.out) as Fit[];
    // Extra-P 4.2.5 on the same folder (`extrap --cube`, metric time, seconds): 1.1170727189110318e-06
    // + 1.514424991196104e-10 * x^(3/4) * log2(x)^(2); SMAPE 3.3888692295816987, adjusted R^2 0.9983681914079563.
    expect(fit.mean.label).toBe("c0 + c1·Q^(3/4)·log2(Q)^2");
    expect(fit.mean.coefficients[0].value).toBeCloseTo(1.1170727189110318, 9);
    expect(fit.mean.coefficients[1].value / 1.514424991196104e-4).toBeCloseTo(1, 9);
    expect(fit.mean.looSmape).toBeCloseTo(3.3888692295816987, 9);
    expect(fit.mean.looAdjustedR2).toBeCloseTo(0.9983681914079563, 12);
    expect(fit.points.map((p) => p.q)).toEqual([1, 10, 25, 50, 100, 250, 500, 1000, 2000]);
    // Each point is that run's inclusive time of mat_mul (its one thread), in microseconds.
    for (const p of fit.points) {
      const t = readTrial(join(CUBE, "single_parameter", `mm.x${p.q}y1z1.r1`, "profile.cubex"));
      expect(p.mean).toBeCloseTo(t.inclusive(t.metricIndex("TIME"), 0, t.timer("mat_mul").index), 9);
    }
  });

  it("converts a Score-P cube set to Extra-P with each callpath's exclusive values, the values Extra-P models of it", async () => {
    const files = ["1", "10"].map((x) => join(CUBE, "single_parameter", `mm.x${x}y1z1.r1`, "profile.cubex"));
    const out = join(scratch, "mm.json");
    expect((await run("profile", "convert", ...files, out, "--point", "x=1", "--point", "x=10", "--callpaths", "--value", "exclusive")).code).toBe(0);
    const exp = JSON.parse(readFileSync(out, "utf8")) as { measurements: Record<string, { TIME: { point: number[]; values: number[] }[] }> };
    const at1 = (callpath: string) => exp.measurements[callpath].TIME.find((m) => m.point[0] === 1)!.values[0];
    // Extra-P 4.2.5 reading the same files (`extrap --cube`), x = 1, seconds: main 3.1883e-05,
    // main->init_mat 3.795e-06, main->zero_mat 1.266e-06, main->mat_mul 1.233e-06.
    expect([at1("main"), at1("main->init_mat"), at1("main->zero_mat"), at1("main->mat_mul")].map((v) => +(v / 1e6).toPrecision(6))).toEqual([3.1883e-5, 3.795e-6, 1.266e-6, 1.233e-6]);
    // Inclusive (the default): main holds its callees' time too.
    const incl = join(scratch, "mm-incl.json");
    expect((await run("profile", "convert", ...files, incl, "--point", "x=1", "--point", "x=10", "--callpaths")).code).toBe(0);
    expect(JSON.parse(readFileSync(incl, "utf8")).measurements.main.TIME[0].values[0]).toBeCloseTo(31.883 + 3.795 + 1.266 + 1.233, 9);
    const r = await run("profile", "convert", files[0], join(scratch, "one-tau"), "--value", "exclusive");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the value \(--value\) applies only to trials converted to Extra-P, not to trial input written as tau/);
  });

  it("says a CUBE 3 file is not read", () => {
    const path = join(scratch, "old.cube");
    writeFileSync(path, '<?xml version="1.0" encoding="UTF-8"?>\n<cube version="3.0">\n</cube>\n');
    expect(() => readTrial(path)).toThrow(/old\.cube: .*: it is a CUBE 3 file, which is not read \(CUBE4 \.cubex files are\)$/);
  });

  it("names a malformed one with exit code 2", async () => {
    const path = join(scratch, "bad.cubex");
    writeFileSync(path, cube({ "anchor.xml": undefined }));
    const r = await run("profile", "show", path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.cubex: no anchor\.xml in the archive/);
  });
});
