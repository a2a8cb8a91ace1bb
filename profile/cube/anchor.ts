/**
 * The `anchor.xml` of a CUBE4 file (`.cubex`): the metric tree, the regions, the call tree of
 * call nodes (cnodes) and the system tree down to the locations (threads). Layout as CubeLib
 * writes it (Score-P's profiles), described in pycubexr's `docs/cube_file_format.md`:
 *
 * ```
 * <cube version="4.4">
 *  <attr key="Creator" value="Score-P 9.0"/>
 *  <metrics><metric id="1" type="INCLUSIVE"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>
 *    (nested metrics)</metric></metrics>
 *  <program>
 *   <region id="3" mod="f.c" begin="10" end="-1"><name>main</name><paradigm>compiler</paradigm>...</region>
 *   <cnode id="0" calleeId="3"><parameter partype="numeric" parkey="n" parvalue="4"/><cnode ...>...</cnode></cnode>
 *  </program>
 *  <system><systemtreenode Id="0"><name>machine</name>(systemtreenodes, locationgroups)
 *   <locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>
 *    <location Id="0"><name>Master thread</name><rank>0</rank><type>thread</type></location>
 * </cube>
 * ```
 *
 * @packageDocumentation
 */
import { XML_END, XML_EOF, XML_START, XML_TEXT, XmlScanner, XmlSyntaxError } from "../tau/xml-scanner.js";

/** The deepest nesting of metrics, or of system tree nodes and location groups, that is read. */
const MAX_NESTING = 256;

/** An element of a parsed XML document. */
interface Element {
  readonly name: string;
  readonly attributes: Map<string, string>;
  readonly children: Element[];
  text: string;
  /** Offset of its start tag. */
  readonly at: number;
}

/** A metric of the metric tree. */
export interface CubeMetric {
  /** Its id: the name of its data files (`<id>.index`, `<id>.data`). */
  readonly id: number;
  /** `uniq_name` (Score-P: `visits`, `time`, `PAPI_TOT_CYC`). */
  readonly name: string;
  /** `disp_name` (`Time`, `Visits`). */
  readonly displayName: string;
  /** `EXCLUSIVE` or `INCLUSIVE` for stored metrics; derived metrics have other types and no data. */
  readonly type: string;
  /** Data type of the stored values (`DOUBLE`, `UINT64`, `MINDOUBLE`, ...). */
  readonly dtype: string;
  /** Unit of measurement (`sec`, `occ`, `bytes`). */
  readonly unit: string;
  /** Metrics nested in this one (parts of it). */
  readonly children: readonly CubeMetric[];
}

/** A region: a function, a loop, an MPI call. */
export interface CubeRegion {
  /** Its id, which call nodes name as `calleeId`. */
  readonly id: number;
  /** The routine's name (`main`, `MPI_Send`). */
  readonly name: string;
  /** `mpi`, `compiler`, `openmp`, `user`, `measurement`, ... */
  readonly paradigm: string;
}

/** A call node: a region on one call path. */
export interface CubeCnode {
  /** Its id (unique in the call tree). */
  readonly id: number;
  /** The region it calls. */
  readonly region: CubeRegion;
  /** Parameters of a parameter-profiled call (`<parameter parkey="n" parvalue="4"/>`), in order. */
  readonly parameters: readonly (readonly [string, string])[];
  /** The call nodes it calls, in the file's order. */
  readonly children: readonly CubeCnode[];
}

/** A location (a thread of a process, or another stream of execution) and what holds it. */
export interface CubeLocation {
  /** Its id: its column in the data files (0..L-1). */
  readonly id: number;
  /** `Master thread`, `OMP thread 3`, `CUDA[0:7]`, ... */
  readonly name: string;
  /** Its rank in its location group (an OpenMP thread's number). */
  readonly rank: number;
  /** `thread`, `accelerator stream`, ... */
  readonly type: string;
  /** The location group (a process) holding it. */
  readonly group: { readonly id: number; readonly name: string; readonly rank: number; readonly type: string };
  /** Names of the system tree nodes above it, outermost first (`machine Linux`, `node n01`). */
  readonly system: readonly string[];
}

/** What an `anchor.xml` describes. */
export interface CubeAnchor {
  /** The `version` of `<cube>` (`4.4`). */
  readonly version: string;
  /** The top-level `<attr key value>` pairs, in order. */
  readonly attributes: readonly (readonly [string, string])[];
  /** The roots of the metric tree. */
  readonly metrics: readonly CubeMetric[];
  /** The roots of the call tree. */
  readonly roots: readonly CubeCnode[];
  /** The locations, by id (0..L-1): the order of the values in the data files. */
  readonly locations: readonly CubeLocation[];
}

/** A malformed `anchor.xml`: what, and the line. */
export class AnchorError extends Error {
  constructor(
    /** 1-based line of `anchor.xml`, when one is to blame. */
    readonly line: number | undefined,
    /** What is wrong. */
    readonly detail: string,
  ) {
    super(detail);
    this.name = "AnchorError";
  }
}

/** Parses the text of an `anchor.xml`. @throws AnchorError naming the line of what is malformed */
export function parseAnchor(text: string): CubeAnchor {
  const sc = new XmlScanner(text);
  let root: Element;
  try {
    root = readTree(sc);
  } catch (e) {
    if (e instanceof XmlSyntaxError) throw new AnchorError(e.line, e.detail);
    throw e;
  }
  const fail = (el: Element, detail: string): never => {
    throw new AnchorError(sc.lineAt(el.at), detail);
  };
  if (root.name !== "cube") fail(root, `<${root.name}> where <cube> was expected: not a CUBE anchor`);
  const integer = (el: Element, key: string): number => {
    const v = el.attributes.get(key);
    if (v === undefined || !/^\s*-?\d+\s*$/.test(v)) fail(el, `<${el.name}> has no integer '${key}' attribute${v === undefined ? "" : ` ('${v}')`}`);
    return Number(v);
  };
  const child = (el: Element, name: string): Element | undefined => el.children.find((c) => c.name === name);
  const textOf = (el: Element, name: string): string => child(el, name)?.text.trim() ?? "";

  // Metric and system trees are a few levels deep; their walks recurse, so a file's nesting is bounded.
  const nested = (el: Element, depth: number): void => {
    if (depth > MAX_NESTING) fail(el, `<${el.name}> nested deeper than ${MAX_NESTING} levels`);
  };
  const metric = (el: Element, depth: number): CubeMetric => {
    nested(el, depth);
    return {
      id: integer(el, "id"),
      name: textOf(el, "uniq_name"),
      displayName: textOf(el, "disp_name"),
      type: el.attributes.get("type") ?? "",
      dtype: textOf(el, "dtype"),
      unit: textOf(el, "uom"),
      children: el.children.filter((c) => c.name === "metric").map((c) => metric(c, depth + 1)),
    };
  };
  const metricsEl = child(root, "metrics");
  const metrics = metricsEl === undefined ? [] : metricsEl.children.filter((c) => c.name === "metric").map((c) => metric(c, 1));

  const program = child(root, "program") ?? fail(root, "no <program> (the call tree)");
  const regions = new Map<number, CubeRegion>();
  for (const el of program.children) {
    if (el.name !== "region") continue;
    const id = integer(el, "id");
    regions.set(id, { id, name: textOf(el, "name"), paradigm: textOf(el, "paradigm") });
  }
  // Built without recursion: a call tree may be deeper than the stack.
  const seen = new Set<number>();
  const roots: CubeCnode[] = [];
  const pending: [Element, CubeCnode[]][] = [];
  const pushCnodes = (el: Element, into: CubeCnode[]): void => {
    for (let i = el.children.length - 1; i >= 0; i--) if (el.children[i].name === "cnode") pending.push([el.children[i], into]);
  };
  pushCnodes(program, roots);
  while (pending.length > 0) {
    const [el, into] = pending.pop()!;
    const id = integer(el, "id");
    if (seen.has(id)) fail(el, `cnode id ${id} is given twice`);
    seen.add(id);
    const callee = integer(el, "calleeId");
    const region = regions.get(callee) ?? fail(el, `cnode ${id} calls region ${callee}, which no <region> defines`);
    const parameters: [string, string][] = [];
    for (const p of el.children) if (p.name === "parameter") parameters.push([p.attributes.get("parkey") ?? "", p.attributes.get("parvalue") ?? ""]);
    const children: CubeCnode[] = [];
    into.push({ id, region, parameters, children });
    pushCnodes(el, children);
  }
  if (roots.length === 0) fail(program, "no <cnode>: the call tree is empty");

  const system = child(root, "system") ?? fail(root, "no <system> (the locations)");
  const locations: CubeLocation[] = [];
  const walkGroup = (el: Element, path: readonly string[], depth: number): void => {
    nested(el, depth);
    const group = { id: integer(el, "Id"), name: textOf(el, "name"), rank: rankOf(el), type: textOf(el, "type") };
    for (const c of el.children) {
      if (c.name === "location") locations.push({ id: integer(c, "Id"), name: textOf(c, "name"), rank: rankOf(c), type: textOf(c, "type"), group, system: path });
      else if (c.name === "locationgroup") walkGroup(c, path, depth + 1);
    }
  };
  const rankOf = (el: Element): number => {
    const r = textOf(el, "rank");
    if (!/^\d+$/.test(r)) fail(el, `<${el.name}> has no rank (a non-negative integer), found '${r}'`);
    return Number(r);
  };
  const walkNode = (el: Element, path: readonly string[]): void => {
    nested(el, path.length + 1);
    const here = [...path, textOf(el, "name")];
    for (const c of el.children) {
      if (c.name === "systemtreenode") walkNode(c, here);
      else if (c.name === "locationgroup") walkGroup(c, here, here.length + 1);
    }
  };
  for (const c of system.children) if (c.name === "systemtreenode") walkNode(c, []);
  if (locations.length === 0) fail(system, "no <location>: nothing was measured");
  locations.sort((a, b) => a.id - b.id);
  locations.forEach((l, i) => {
    if (l.id !== i) throw new AnchorError(undefined, `location ids are not 0..${locations.length - 1} (${l.id} where ${i} was expected)`);
  });

  const attributes: [string, string][] = root.children.filter((c) => c.name === "attr").map((c) => [c.attributes.get("key") ?? "", c.attributes.get("value") ?? ""]);
  return { version: root.attributes.get("version") ?? "", attributes, metrics, roots, locations };
}

/** The document's root element, with every element below it. */
function readTree(sc: XmlScanner): Element {
  let root: Element | undefined;
  const stack: Element[] = [];
  for (;;) {
    const kind = sc.next();
    if (kind === XML_EOF) break;
    if (kind === XML_START) {
      const el: Element = { name: sc.name, attributes: sc.attributes, children: [], text: "", at: sc.start };
      if (stack.length > 0) stack[stack.length - 1].children.push(el);
      else if (root !== undefined) sc.fail(`a second root element <${sc.name}>`);
      else root = el;
      stack.push(el);
    } else if (kind === XML_END) stack.pop();
    else if (kind === XML_TEXT) {
      if (stack.length > 0) stack[stack.length - 1].text += sc.text;
      else if (sc.text.trim() !== "") sc.fail("text outside the root element");
    }
  }
  if (root === undefined) throw new XmlSyntaxError(1, "no element: not an XML document");
  return root;
}
