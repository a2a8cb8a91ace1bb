/**
 * Reader of CUBE4 profiles (`.cubex`), the profile format of Score-P and Scalasca: a tar archive
 * (plain or gzip) of `anchor.xml` (see `anchor.ts`) and one `<id>.index`/`<id>.data` pair per
 * stored metric (see `data.ts`). Each becomes a trial as a TAU profile has it:
 *
 * - **Threads**: each location, as node = its location group's rank (the MPI rank), context 0,
 *   thread = its rank in the group (an OpenMP thread's number); a second location of the same
 *   numbers (another kind of stream) takes its position in the group instead, or when that is
 *   taken too, the next free thread number after it.
 * - **Timers**: each call node is a callpath timer `main => solve => MPI_Allreduce` and adds to the
 *   flat timer of its region, as TAU records callpaths (a recursive call's flat inclusive value
 *   counts its outermost call only: the outermost of the flat timer's name on the path); a
 *   parameter-profiled node is named as TAU names one, `region [ <key> = <value> ]`, a flat timer
 *   of its own. Call nodes of one call path (sibling nodes of one region) add up in its timer. Its
 *   groups are the region's paradigm (`MPI`, `COMPILER`, `OPENMP`, `USER`, ...). A node a thread
 *   neither visited nor has a value of is not in that thread's profile (an OpenMP worker has
 *   values, but no visits, on the nodes above its parallel regions).
 * - **Calls** are the `visits` metric, subroutine calls the visits of a node's children.
 * - **Metrics**: every other stored metric whose values add up, named by its unique name, `time`
 *   as `TIME`; values in seconds are converted to microseconds, as TAU profiles hold them. Both
 *   exclusive and inclusive values come from the stored one along the call tree (an unsigned
 *   count's exclusive value is never negative, as pycubexr has it). Metrics whose
 *   values do not add up (Score-P's `min_time` and `max_time`, histograms), derived metrics
 *   (which hold no data) and `SIMPLE` ones are not read: the trial's metadata names them (`CUBE
 *   metrics not read`). A metric without data files (CubeLib: zero everywhere) is left out.
 * - **Metadata**: the file's attributes (`Creator`, `CUBE_CT_AGGR`, ...) and, per thread, the
 *   names of its location, location group and system tree nodes.
 *
 * @packageDocumentation
 */
import { TrialBuilder } from "../builder.js";
import { ProfileFormatError } from "../errors.js";
import { inflatedInput, readInputBytes } from "../gzip-input.js";
import type { Trial } from "../model.js";
import { canonicalTimerName } from "../names.js";
import type { TrialReadOptions } from "../tau/text-read.js";
import { AnchorError, parseAnchor, type CubeAnchor, type CubeCnode, type CubeLocation, type CubeMetric } from "./anchor.js";
import { CubeDataError, cnodeEnumeration, isAdditiveType, isUnsignedType, readMetricValues } from "./data.js";
import { tarMembers, TarError } from "./tar.js";

/** Microseconds per second: TAU profiles hold times in microseconds. */
const US_PER_SECOND = 1e6;

/**
 * Reads a CUBE4 profile (`.cubex`).
 * @throws ProfileFormatError naming the file (and the member, and line of `anchor.xml`) of what is malformed
 * @throws ProfileError when the file cannot be read
 */
export function readCubeProfile(path: string, options: TrialReadOptions = {}): Trial {
  return parseCubeProfile(readInputBytes(path), path, options);
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
  const archive = inflatedInput(bytes, file);
  let members: Map<string, Uint8Array>;
  try {
    members = tarMembers(archive);
  } catch (e) {
    if (e instanceof TarError) throw new ProfileFormatError(file, undefined, `not a readable tar archive: ${e.detail}`, e.offset);
    throw e;
  }
  const anchorMember = members.get("anchor.xml");
  if (anchorMember === undefined) throw new ProfileFormatError(file, undefined, "no anchor.xml in the archive: not a CUBE4 profile");
  const anchorBytes = inflatedInput(anchorMember, `${file} (anchor.xml)`);
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
    // Derived metrics (POSTDERIVED, PREDERIVED_*) are CubePL expressions and hold no data; SIMPLE
    // ones are not aggregated along the call tree.
    if (type !== "EXCLUSIVE" && type !== "INCLUSIVE") {
      notRead.push(`${metric.name} (${metric.type || "no type"})`);
      continue;
    }
    // A metric without data files has no value anywhere (CubeLib reads it as zero).
    if (index === undefined && data === undefined) continue;
    if (index === undefined || data === undefined) {
      const [has, lacks] = index === undefined ? ["data", "index"] : ["index", "data"];
      throw new ProfileFormatError(`${file} (${metric.id}.${has})`, undefined, `metric '${metric.name}': the archive has no ${metric.id}.${lacks} to go with it`);
    }
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
  return buildTrial(anchor, preorder, stored, notRead, file, options);
}

/** Every metric of the tree, parents before their children. */
function allMetrics(metrics: readonly CubeMetric[]): CubeMetric[] {
  return metrics.flatMap((m) => [m, ...allMetrics(m.children)]);
}

/** The trial of an anchor and its stored metrics' values (`preorder`: its call nodes, each before its children). */
function buildTrial(anchor: CubeAnchor, preorder: readonly CubeCnode[], stored: readonly StoredMetric[], notRead: readonly string[], file: string, options: TrialReadOptions): Trial {
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
  const threads = threadsOf(b, anchor.locations);
  const L = anchor.locations.length;
  const M = measured.length;
  // Per metric, per call node id: exclusive and inclusive values per location, from the stored ones.
  const exclusive: Map<number, Float64Array>[] = [];
  const inclusive: Map<number, Float64Array>[] = [];
  for (const s of measured) {
    const scale = s.metric.unit.trim().toLowerCase() === "sec" ? US_PER_SECOND : 1;
    const { excl, incl } = bothForms(preorder, s.values, s.metric.type.toUpperCase() === "INCLUSIVE", isUnsignedType(s.metric.dtype), L, scale);
    exclusive.push(excl);
    inclusive.push(incl);
  }
  const ex = new Float64Array(b.metricCount);
  const inc = new Float64Array(b.metricCount);
  const exRows: Float64Array[] = new Array<Float64Array>(M);
  const incRows: Float64Array[] = new Array<Float64Array>(M);
  const subroutines = new Float64Array(L);
  // Each call node's values go to its callpath timer and its region's flat timer, both resolved
  // once per node (not per thread: a timer's name is normalized on every lookup).
  const addNode = (node: CubeCnode, path: readonly string[], recursive: boolean): void => {
    const calls = visits?.values.get(node.id);
    subroutines.fill(0);
    for (const c of node.children) {
      const v = visits?.values.get(c.id);
      if (v !== undefined) for (let l = 0; l < L; l++) subroutines[l] += v[l];
    }
    for (let m = 0; m < M; m++) {
      exRows[m] = exclusive[m].get(node.id)!;
      incRows[m] = inclusive[m].get(node.id)!;
    }
    let flat = -1;
    let callpath = -1;
    for (let l = 0; l < L; l++) {
      const n = calls?.[l] ?? 0;
      let any = n !== 0;
      for (let m = 0; m < M; m++) {
        ex[metricIndex[m]] = exRows[m][l];
        inc[metricIndex[m]] = incRows[m][l];
        if (exRows[m][l] !== 0 || incRows[m][l] !== 0) any = true;
      }
      if (!any) continue;
      if (flat < 0) {
        const groups = node.region.paradigm === "" ? [] : [node.region.paradigm.toUpperCase()];
        flat = b.timer(path[path.length - 1], groups);
        if (path.length > 1) callpath = b.callpath(path, ["TAU_CALLPATH", ...groups]);
      }
      b.addCallpathValuesAt(threads[l], flat, callpath, { calls: n, subroutines: subroutines[l], exclusive: ex, inclusive: inc }, { flatInclusive: !recursive });
    }
  };
  walkCallTree(anchor.roots, addNode);
  return b.build({ checkInvariants: options.checkInvariants ?? true });
}

/**
 * Calls `visit` for every call node, parents before their children, with its call path (timer
 * names, root first) and whether its flat timer is already on the path above it (a recursive call).
 * The flat timer, not the region: a parameter-profiled call node (Score-P places it below a node of
 * the same region) is a timer of its own, and two regions of one name are one timer. Iterative: a
 * call tree may be deeper than the stack.
 */
function walkCallTree(roots: readonly CubeCnode[], visit: (node: CubeCnode, path: readonly string[], recursive: boolean) => void): void {
  const path: string[] = [];
  const onPath = new Map<string, number>();
  const stack: { node: CubeCnode; key: string; next: number }[] = [];
  const enter = (node: CubeCnode): void => {
    const name = timerName(node);
    const key = canonicalTimerName(name);
    path.push(name);
    const depth = onPath.get(key) ?? 0;
    onPath.set(key, depth + 1);
    visit(node, path, depth > 0);
    stack.push({ node, key, next: 0 });
  };
  for (const root of roots) {
    enter(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next < top.node.children.length) {
        enter(top.node.children[top.next++]);
        continue;
      }
      stack.pop();
      path.pop();
      onPath.set(top.key, onPath.get(top.key)! - 1);
    }
  }
}

/** A call node's name as a timer: its region's, with TAU_PARAM-style parameters. */
function timerName(node: CubeCnode): string {
  let name = node.region.name;
  for (const [k, v] of node.parameters) name += ` [ <${k}> = <${v}> ]`;
  return name;
}

/**
 * Exclusive and inclusive values (scaled) of every call node from the stored form: inclusive is a
 * node's exclusive plus its children's inclusive values; an `unsigned` metric's exclusive value is
 * not negative (see {@link isUnsignedType}). `preorder` lists every node before its children
 * ({@link cnodeEnumeration}); nodes are done in reverse, children first. The rows of `stored`
 * become one of the two forms (scaled in place): the map is not to be read after.
 */
function bothForms(preorder: readonly CubeCnode[], stored: Map<number, Float64Array>, storedInclusive: boolean, unsigned: boolean, L: number, scale: number): { excl: Map<number, Float64Array>; incl: Map<number, Float64Array> } {
  const excl = new Map<number, Float64Array>();
  const incl = new Map<number, Float64Array>();
  for (let k = preorder.length - 1; k >= 0; k--) {
    const node = preorder[k];
    // The stored row (scaled in place: it is this function's alone) is one of the two forms; the
    // other starts as its copy.
    const own = stored.get(node.id) ?? new Float64Array(L);
    if (scale !== 1) for (let l = 0; l < L; l++) own[l] *= scale;
    const other = Float64Array.from(own);
    const e = storedInclusive ? other : own;
    const i = storedInclusive ? own : other;
    for (const c of node.children) {
      const ci = incl.get(c.id)!;
      // Exclusive is what the children's inclusive values leave of the node's; inclusive adds them.
      if (storedInclusive) for (let l = 0; l < L; l++) e[l] -= ci[l];
      else for (let l = 0; l < L; l++) i[l] += ci[l];
    }
    if (storedInclusive && unsigned) for (let l = 0; l < L; l++) e[l] = Math.max(0, e[l]);
    excl.set(node.id, e);
    incl.set(node.id, i);
  }
  return { excl, incl };
}

/**
 * The trial's thread for each location (by location id), with its metadata: each location takes
 * its own rank in its process, the first of a rank to claim it; a location whose rank another
 * took (a GPU stream beside the master thread) takes the process's next number past every rank
 * of it, so an OpenMP thread keeps its number whatever the order of the locations.
 */
function threadsOf(b: TrialBuilder, locations: readonly CubeLocation[]): number[] {
  const claimed = new Set<string>();
  const next = new Map<number, number>();
  const own = locations.map((loc) => {
    const key = `${loc.group.rank}.${loc.rank}`;
    next.set(loc.group.rank, Math.max(next.get(loc.group.rank) ?? 0, loc.rank + 1));
    if (claimed.has(key)) return -1;
    claimed.add(key);
    return loc.rank;
  });
  const numbers = own.map((rank, i) => {
    if (rank >= 0) return rank;
    const node = locations[i].group.rank;
    const thread = next.get(node)!;
    next.set(node, thread + 1);
    return thread;
  });
  // Threads are added in the order of the locations' ids, whatever numbers they take.
  return locations.map((loc, i) => {
    const t = b.addThread(loc.group.rank, 0, numbers[i]);
    b.setThreadMetadata(t, "CUBE location", loc.name);
    b.setThreadMetadata(t, "CUBE location type", loc.type);
    b.setThreadMetadata(t, "CUBE location group", loc.group.name);
    if (loc.system.length > 0) b.setThreadMetadata(t, "CUBE system tree", loc.system.join(" / "));
    return t;
  });
}
