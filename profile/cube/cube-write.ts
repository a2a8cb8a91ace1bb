/**
 * Writer of CUBE4 profiles (`.cubex`), for Cube's browser and the tools that read Score-P's
 * profiles: a trial's call tree as call nodes, its threads as locations, `visits` (calls, stored
 * exclusive) and every metric stored inclusive, as Score-P stores them: `TIME` as `time` in
 * seconds, a counter as `UINT64` counts when all its values are whole and not negative (else
 * `DOUBLE`). The layout is the one `cube-read.ts` reads (and `anchor.ts`, `data.ts` describe):
 * an uncompressed tar of `anchor.xml` and a `<id>.index`/`<id>.data` pair per metric, every call
 * node listed, little-endian.
 *
 * - **Call tree**: the trial's callpath timers (`A => B => C`), rooted at its top-level timers. A
 *   flat profile records no call tree, and one of depth-limited callpaths (TAU's default depth 2)
 *   only pieces of it: both are refused.
 * - **Regions**: one per routine name; MPI routines (group `MPI`, or a name starting `MPI_`) have
 *   paradigm `mpi`, the others `user`.
 * - **Locations**: thread n,c,t is the location of rank t in the location group (process) of rank
 *   n on system node `node n`; contexts other than 0 are written as processes of their own, named
 *   for their context (CUBE has no contexts).
 * - **Not written**: user events and the threads' metadata (a CUBE4 profile of Score-P's holds
 *   neither); the trial's metadata becomes the file's attributes.
 *
 * @packageDocumentation
 */
import { encodeXmlText } from "../tau/xml.js";
import { ProfileModelError } from "../errors.js";
import type { Trial } from "../model.js";
import { isTimeMetric } from "../tau/text-write.js";
import { callpathTree, callpathTimers, type CallpathNode } from "../views.js";
import { cnodeEnumeration } from "./data.js";
import type { CubeCnode, CubeRegion } from "./anchor.js";
import { writeTextFileAtomically } from "../atomic-text-file.js";

/** Microseconds per second: CUBE holds times in seconds. */
const US_PER_SECOND = 1e6;

/** A call node to write: the reader's shape, with the trial's timer of its values. */
interface Node extends CubeCnode {
  readonly timer: number;
  readonly children: Node[];
}

/**
 * The bytes of a `.cubex` file of `trial`.
 * @throws ProfileModelError for a trial without a whole call tree (flat, or depth-limited callpaths)
 */
export function formatCubeProfile(trial: Trial): Uint8Array {
  if (callpathTimers(trial).length === 0) throw new ProfileModelError("a CUBE4 profile needs a call tree: this trial is a flat profile (it records no callpath)");
  const tree = callpathTree(trial);
  if (tree.truncated) throw new ProfileModelError("a CUBE4 profile needs a whole call tree: this trial's callpaths are depth-limited (TAU's default depth 2 names a routine's caller, not its path from the root)");
  const regions = new Map<string, CubeRegion>();
  let nextNode = 0;
  const mpiNames = new Set(trial.timers.filter((t) => t.groups.includes("MPI")).map((t) => t.path[t.path.length - 1]));
  const toNode = (c: CallpathNode): Node => {
    let region = regions.get(c.name);
    if (region === undefined) {
      region = { id: regions.size, name: c.name, paradigm: mpiNames.has(c.name) || c.name.startsWith("MPI_") ? "mpi" : "user" };
      regions.set(c.name, region);
    }
    if (c.timer < 0) throw new ProfileModelError(`the callpath ${c.path.join(" => ")} has no timer of its own: the call tree is not whole`);
    return { id: nextNode++, region, parameters: [], timer: c.timer, children: [] };
  };
  // Node ids in preorder, built without recursion (a call tree may be deeper than the stack).
  const roots: Node[] = [];
  const stack: { tree: CallpathNode; into: Node[] }[] = tree.roots.map((r) => ({ tree: r, into: roots })).reverse();
  while (stack.length > 0) {
    const { tree: c, into } = stack.pop()!;
    const node = toNode(c);
    into.push(node);
    for (let i = c.children.length - 1; i >= 0; i--) stack.push({ tree: c.children[i], into: node.children });
  }
  const L = trial.threads.length;
  const nT = trial.timers.length;
  const preorder = cnodeEnumeration(roots, false) as Node[];
  const wide = cnodeEnumeration(roots, true) as Node[];
  const v = trial.values;
  // Values per call node (in an enumeration) and location; `get` reads the trial's slot (thread x timer).
  const table = (order: readonly Node[], get: (slot: number) => number): Float64Array => {
    const out = new Float64Array(order.length * L);
    order.forEach((node, i) => {
      for (let l = 0; l < L; l++) {
        const slot = l * nT + node.timer;
        out[i * L + l] = v.present[slot] === 1 ? get(slot) : 0;
      }
    });
    return out;
  };
  // Whole counts from 0 to 2^53 are stored as UINT64; anything else (a fraction, a negative value) as DOUBLE.
  const whole = (values: Float64Array): boolean => values.every((x) => Number.isInteger(x) && x >= 0 && x <= Number.MAX_SAFE_INTEGER);
  const visits = table(preorder, (s) => v.calls[s]);
  const metrics: MetricData[] = [{ name: "visits", display: "Visits", type: "EXCLUSIVE", unit: "occ", values: visits, integer: whole(visits) }];
  trial.metrics.forEach((name, m) => {
    const time = isTimeMetric(name);
    const values = table(wide, (s) => v.inclusive[m][s] / (time ? US_PER_SECOND : 1));
    const integer = !time && whole(values);
    metrics.push({ name: name === "TIME" ? "time" : name, display: name === "TIME" ? "Time" : name, type: "INCLUSIVE", unit: time ? "sec" : "occ", values, integer });
  });
  const members: [string, Uint8Array][] = [["anchor.xml", Buffer.from(anchorXml(trial, metrics, [...regions.values()], roots), "utf8")]];
  metrics.forEach((m, id) => {
    members.push([`${id}.index`, indexBytes(preorder.length)], [`${id}.data`, dataBytes(m.values, m.integer)]);
  });
  return tarBytes(members);
}

/**
 * Writes `trial` as a `.cubex` file, atomically (see `writeTextFileAtomically`).
 * @throws ProfileModelError for a trial without a whole call tree; ProfileError when the file cannot be written
 */
export function writeCubeProfile(trial: Trial, path: string): void {
  const bytes = formatCubeProfile(trial);
  writeTextFileAtomically(path, (write) => write(bytes));
}

/** A metric to write: its names, how its values are stored, and the values per call node and location. */
interface MetricData {
  readonly name: string;
  readonly display: string;
  readonly type: "EXCLUSIVE" | "INCLUSIVE";
  readonly unit: string;
  readonly values: Float64Array;
  /** Stored as UINT64 counts (else DOUBLE). */
  readonly integer: boolean;
}

/** The `anchor.xml` text. */
function anchorXml(trial: Trial, metrics: readonly MetricData[], regions: readonly CubeRegion[], roots: readonly Node[]): string {
  const x = encodeXmlText;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n', '<cube version="4.4">\n', '<attr key="Creator" value="ccasim"/>\n', '<attr key="CUBE_CT_AGGR" value="SUM"/>\n'];
  for (const [k, val] of trial.metadata) out.push(`<attr key="${x(k)}" value="${x(val)}"/>\n`);
  out.push("<metrics>\n");
  metrics.forEach((m, id) => {
    out.push(`<metric id="${id}" type="${m.type}">\n<disp_name>${x(m.display)}</disp_name>\n<uniq_name>${x(m.name)}</uniq_name>\n<dtype>${m.integer ? "UINT64" : "DOUBLE"}</dtype>\n<uom>${m.unit}</uom>\n<url></url>\n<descr></descr>\n</metric>\n`);
  });
  out.push("</metrics>\n<program>\n");
  for (const r of regions) {
    out.push(`<region id="${r.id}" mod="" begin="-1" end="-1">\n<name>${x(r.name)}</name>\n<mangled_name>${x(r.name)}</mangled_name>\n<paradigm>${r.paradigm}</paradigm>\n<role>function</role>\n<url></url>\n<descr></descr>\n</region>\n`);
  }
  // Call nodes nested as the tree is, written without recursion (a tree may be deep).
  const stack: { node: Node; open: boolean }[] = roots.map((node) => ({ node, open: false })).reverse();
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top.open) {
      out.push("</cnode>\n");
      continue;
    }
    out.push(`<cnode id="${top.node.id}" calleeId="${top.node.region.id}">\n`);
    stack.push({ node: top.node, open: true });
    for (let i = top.node.children.length - 1; i >= 0; i--) stack.push({ node: top.node.children[i], open: false });
  }
  out.push("</program>\n<system>\n");
  // One system node per node number; a location group per node and context; a location per thread.
  const nodes = [...new Set(trial.threads.map((t) => t.node))].sort((a, b) => a - b);
  let group = 0;
  let systemId = 1;
  out.push('<systemtreenode Id="0">\n<name>machine ccasim</name>\n<class>machine</class>\n');
  for (const n of nodes) {
    out.push(`<systemtreenode Id="${systemId++}">\n<name>node ${n}</name>\n<class>node</class>\n`);
    const contexts = [...new Set(trial.threads.filter((t) => t.node === n).map((t) => t.context))].sort((a, b) => a - b);
    for (const c of contexts) {
      out.push(`<locationgroup Id="${group++}">\n<name>${c === 0 ? `rank ${n}` : `rank ${n} context ${c}`}</name>\n<rank>${n}</rank>\n<type>process</type>\n`);
      trial.threads.forEach((t, id) => {
        if (t.node === n && t.context === c) out.push(`<location Id="${id}">\n<name>thread ${t.thread}</name>\n<rank>${t.thread}</rank>\n<type>thread</type>\n</location>\n`);
      });
      out.push("</locationgroup>\n");
    }
    out.push("</systemtreenode>\n");
  }
  out.push("</systemtreenode>\n</system>\n</cube>\n");
  return out.join("");
}

/** A `CUBEX.INDEX` listing all `n` call nodes (little-endian, sparse format). */
function indexBytes(n: number): Uint8Array {
  const b = Buffer.alloc(22 + 4 * n);
  b.write("CUBEX.INDEX", 0, "latin1");
  b.writeInt32LE(1, 11);
  b.writeInt16LE(0, 15);
  b.writeUInt8(1, 17);
  b.writeInt32LE(n, 18);
  for (let i = 0; i < n; i++) b.writeInt32LE(i, 22 + 4 * i);
  return b;
}

/** A `CUBEX.DATA` of the values, as UINT64 or DOUBLE (little-endian). */
function dataBytes(values: Float64Array, integer: boolean): Uint8Array {
  const b = Buffer.alloc(10 + 8 * values.length);
  b.write("CUBEX.DATA", 0, "latin1");
  for (let i = 0; i < values.length; i++) {
    if (integer) b.writeBigUInt64LE(BigInt(values[i]), 10 + 8 * i);
    else b.writeDoubleLE(values[i], 10 + 8 * i);
  }
  return b;
}

/** A ustar archive of regular files (mode 0644, time 0: the same trial gives the same bytes). */
function tarBytes(members: readonly [string, Uint8Array][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, data] of members) {
    const h = Buffer.alloc(512);
    h.write(name, 0, "utf8");
    h.write("0000644\0", 100, "latin1");
    h.write("0000000\0", 108, "latin1");
    h.write("0000000\0", 116, "latin1");
    h.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124, "latin1");
    h.write("00000000000\0", 136, "latin1");
    h.write("        ", 148, "latin1");
    h.write("0", 156, "latin1");
    h.write("ustar\0", 257, "latin1");
    h.write("00", 263, "latin1");
    let sum = 0;
    for (const byte of h) sum += byte;
    h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
    parts.push(h, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return Buffer.concat(parts);
}
