/**
 * Reader of CUBE4 profiles (`.cubex`), the profile format of Score-P and Scalasca: a tar archive
 * (plain or gzip) of `anchor.xml` (see `anchor.ts`) and one `<id>.index`/`<id>.data` pair per
 * stored metric (see `data.ts`). Each becomes a trial as a TAU profile has it:
 *
 * - **Threads**: each location, as node = its location group's rank (the MPI rank), context 0,
 *   thread = its rank in the group (an OpenMP thread's number); a second location of the same
 *   numbers (another kind of stream) takes its position in the group instead.
 * - **Timers**: each call node is a callpath timer `main => solve => MPI_Allreduce` and adds to the
 *   flat timer of its region, as TAU records callpaths (a recursive call's flat inclusive value
 *   counts its outermost call only); a parameter-profiled node is named as TAU names one,
 *   `region [ <key> = <value> ]`. Its groups are the region's paradigm (`MPI`, `COMPILER`,
 *   `OPENMP`, `USER`, ...). A node a thread neither visited nor has a value of is not in that
 *   thread's profile (an OpenMP worker has values, but no visits, on the nodes above its
 *   parallel regions).
 * - **Calls** are the `visits` metric, subroutine calls the visits of a node's children.
 * - **Metrics**: every other stored metric whose values add up, named by its unique name, `time`
 *   as `TIME`; values in seconds are converted to microseconds, as TAU profiles hold them. Both
 *   exclusive and inclusive values come from the stored one along the call tree. Metrics whose
 *   values do not add up (Score-P's `min_time` and `max_time`, histograms) and derived metrics
 *   (which hold no data) are not read: the trial's metadata names them (`CUBE metrics not read`).
 * - **Metadata**: the file's attributes (`Creator`, `CUBE_CT_AGGR`, ...) and, per thread, the
 *   names of its location, location group and system tree nodes.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { TrialBuilder } from "../builder.js";
import { ProfileError, ProfileFormatError } from "../errors.js";
import { fileErrorText } from "../file-error.js";
import type { Trial } from "../model.js";
import type { TrialReadOptions } from "../tau/text-read.js";
import { AnchorError, parseAnchor, type CubeAnchor, type CubeCnode, type CubeLocation, type CubeMetric } from "./anchor.js";
import { CubeDataError, cnodeEnumeration, isAdditiveType, readMetricValues } from "./data.js";
import { tarMembers, TarError } from "./tar.js";

/** Microseconds per second: TAU profiles hold times in microseconds. */
const US_PER_SECOND = 1e6;

/**
 * Reads a CUBE4 profile (`.cubex`).
 * @throws ProfileFormatError naming the file (and the member, and line of `anchor.xml`) of what is malformed
 * @throws ProfileError when the file cannot be read
 */
export function readCubeProfile(path: string, options: TrialReadOptions = {}): Trial {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (e) {
    throw new ProfileError(`cannot read '${path}': ${fileErrorText(e)}`);
  }
  return parseCubeProfile(raw, path, options);
}

/** A stored metric and its values per call node id. */
interface StoredMetric {
  readonly metric: CubeMetric;
  readonly values: Map<number, Float64Array>;
}

/**
 * Parses the bytes of a `.cubex` file (a tar archive, gzip-compressed or not).
 * @throws ProfileFormatError naming the file, member and line of what is malformed
 */
export function parseCubeProfile(bytes: Uint8Array, file: string, options: TrialReadOptions = {}): Trial {
  let archive = bytes;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      archive = gunzipSync(bytes);
    } catch (e) {
      throw new ProfileFormatError(file, undefined, `corrupt gzip data: ${(e as Error).message}`);
    }
  }
  let members: Map<string, Uint8Array>;
  try {
    members = tarMembers(archive);
  } catch (e) {
    if (e instanceof TarError) throw new ProfileFormatError(file, undefined, `not a readable tar archive: ${e.detail}`, e.offset);
    throw e;
  }
  let anchorBytes = members.get("anchor.xml");
  if (anchorBytes === undefined) throw new ProfileFormatError(file, undefined, "no anchor.xml in the archive: not a CUBE4 profile");
  if (anchorBytes[0] === 0x1f && anchorBytes[1] === 0x8b) {
    try {
      anchorBytes = gunzipSync(anchorBytes);
    } catch (e) {
      throw new ProfileFormatError(`${file} (anchor.xml)`, undefined, `corrupt gzip data: ${(e as Error).message}`);
    }
  }
  let anchor: CubeAnchor;
  try {
    anchor = parseAnchor(Buffer.from(anchorBytes).toString("utf8"));
  } catch (e) {
    if (e instanceof AnchorError) throw new ProfileFormatError(`${file} (anchor.xml)`, e.line, e.detail);
    throw e;
  }
  const stored: StoredMetric[] = [];
  const notRead: string[] = [];
  const preorder = cnodeEnumeration(anchor.roots, false);
  let wide: CubeCnode[] | undefined;
  for (const metric of allMetrics(anchor.metrics)) {
    const index = members.get(`${metric.id}.index`);
    const data = members.get(`${metric.id}.data`);
    const type = metric.type.toUpperCase();
    if (index === undefined || data === undefined || (type !== "EXCLUSIVE" && type !== "INCLUSIVE")) continue;
    if (!isAdditiveType(metric.dtype)) {
      notRead.push(`${metric.name} (${metric.dtype})`);
      continue;
    }
    const order = type === "INCLUSIVE" ? (wide ??= cnodeEnumeration(anchor.roots, true)) : preorder;
    try {
      stored.push({ metric, values: readMetricValues(String(metric.id), index, data, metric.dtype, anchor.locations.length, order) });
    } catch (e) {
      if (e instanceof CubeDataError) throw new ProfileFormatError(`${file} (${e.member})`, undefined, `metric '${metric.name}': ${e.detail}`);
      throw e;
    }
  }
  return buildTrial(anchor, stored, notRead, file, options);
}

/** Every metric of the tree, parents before their children. */
function allMetrics(metrics: readonly CubeMetric[]): CubeMetric[] {
  return metrics.flatMap((m) => [m, ...allMetrics(m.children)]);
}

/** The trial of an anchor and its stored metrics' values. */
function buildTrial(anchor: CubeAnchor, stored: readonly StoredMetric[], notRead: readonly string[], file: string, options: TrialReadOptions): Trial {
  const b = new TrialBuilder({ source: file });
  b.setMetadata("CUBE version", anchor.version);
  for (const [k, v] of anchor.attributes) b.setMetadata(k, v);
  if (notRead.length > 0) b.setMetadata("CUBE metrics not read", notRead.join(", "));
  const visits = stored.find((s) => s.metric.name === "visits");
  const measured = stored.filter((s) => s !== visits);
  if (measured.length === 0) throw new ProfileFormatError(file, undefined, "no metric but visits is stored: there is nothing to profile");
  const used = new Set<string>();
  const metricIndex = measured.map((s) => {
    let name = s.metric.name === "time" ? "TIME" : s.metric.name || s.metric.displayName || `metric ${s.metric.id}`;
    for (let k = 2; used.has(name); k++) name = `${s.metric.name} (${k})`;
    used.add(name);
    return b.addMetric(name);
  });
  const threads = threadsOf(b, anchor.locations, file);
  const L = anchor.locations.length;
  const M = measured.length;
  // Per metric, per call node id: exclusive and inclusive values per location, from the stored ones.
  const exclusive: Map<number, Float64Array>[] = [];
  const inclusive: Map<number, Float64Array>[] = [];
  for (const s of measured) {
    const scale = s.metric.unit.trim().toLowerCase() === "sec" ? US_PER_SECOND : 1;
    const { excl, incl } = bothForms(anchor.roots, s.values, s.metric.type.toUpperCase() === "INCLUSIVE", L, scale);
    exclusive.push(excl);
    inclusive.push(incl);
  }
  const zero = new Float64Array(L);
  const ex = new Float64Array(b.metricCount);
  const inc = new Float64Array(b.metricCount);
  // `open`: the flat timers on the path so far; a node whose flat timer is among them is a
  // recursive call, whose flat inclusive value its outermost call already holds.
  const visit = (node: CubeCnode, path: string[], open: Set<string>): void => {
    const name = timerName(node);
    path.push(name);
    const recursive = open.has(name);
    open.add(name);
    const groups = node.region.paradigm === "" ? [] : [node.region.paradigm.toUpperCase()];
    const calls = visits?.values.get(node.id) ?? zero;
    for (let l = 0; l < L; l++) {
      let subroutines = 0;
      for (const c of node.children) subroutines += visits?.values.get(c.id)?.[l] ?? 0;
      let any = calls[l] !== 0;
      for (let m = 0; m < M; m++) {
        ex[metricIndex[m]] = exclusive[m].get(node.id)?.[l] ?? 0;
        inc[metricIndex[m]] = inclusive[m].get(node.id)?.[l] ?? 0;
        if (ex[metricIndex[m]] !== 0 || inc[metricIndex[m]] !== 0) any = true;
      }
      if (!any) continue;
      b.addCallpathValues(threads[l], path, { calls: calls[l], subroutines, exclusive: ex, inclusive: inc }, groups, { flatInclusive: !recursive });
    }
    for (const c of node.children) visit(c, path, open);
    if (!recursive) open.delete(name);
    path.pop();
  };
  for (const root of anchor.roots) visit(root, [], new Set());
  return b.build({ checkInvariants: options.checkInvariants ?? true });
}

/** A call node's name as a timer: its region's, with TAU_PARAM-style parameters. */
function timerName(node: CubeCnode): string {
  let name = node.region.name;
  for (const [k, v] of node.parameters) name += ` [ <${k}> = <${v}> ]`;
  return name;
}

/**
 * Exclusive and inclusive values (scaled) of every call node from the stored form: inclusive is a
 * node's exclusive plus its children's inclusive values.
 */
function bothForms(roots: readonly CubeCnode[], stored: Map<number, Float64Array>, storedInclusive: boolean, L: number, scale: number): { excl: Map<number, Float64Array>; incl: Map<number, Float64Array> } {
  const excl = new Map<number, Float64Array>();
  const incl = new Map<number, Float64Array>();
  const walk = (node: CubeCnode): Float64Array => {
    const own = stored.get(node.id);
    const e = new Float64Array(L);
    const i = new Float64Array(L);
    if (own !== undefined) for (let l = 0; l < L; l++) (storedInclusive ? i : e)[l] = own[l] * scale;
    const children = new Float64Array(L);
    for (const c of node.children) {
      const ci = walk(c);
      for (let l = 0; l < L; l++) children[l] += ci[l];
    }
    for (let l = 0; l < L; l++) {
      if (storedInclusive) e[l] = i[l] - children[l];
      else i[l] = e[l] + children[l];
    }
    excl.set(node.id, e);
    incl.set(node.id, i);
    return i;
  };
  for (const r of roots) walk(r);
  return { excl, incl };
}

/** The trial's thread for each location (by location id), with its metadata. */
function threadsOf(b: TrialBuilder, locations: readonly CubeLocation[], file: string): number[] {
  const position = new Map<number, number>();
  return locations.map((loc) => {
    const inGroup = position.get(loc.group.id) ?? 0;
    position.set(loc.group.id, inGroup + 1);
    let thread = loc.rank;
    if (b.threadIndex(loc.group.rank, 0, thread) >= 0) thread = inGroup;
    if (b.threadIndex(loc.group.rank, 0, thread) >= 0) {
      throw new ProfileFormatError(`${file} (anchor.xml)`, undefined, `locations ${loc.id} and another both map to thread ${loc.group.rank},0,${thread}`);
    }
    const t = b.addThread(loc.group.rank, 0, thread);
    b.setThreadMetadata(t, "CUBE location", loc.name);
    b.setThreadMetadata(t, "CUBE location type", loc.type);
    b.setThreadMetadata(t, "CUBE location group", loc.group.name);
    if (loc.system.length > 0) b.setThreadMetadata(t, "CUBE system tree", loc.system.join(" / "));
    return t;
  });
}
