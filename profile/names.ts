/**
 * Timer and user-event names as TAU writes them and ParaProf shows them.
 *
 * TAU pads names with spaces (`"MPI_Init()  "`) and joins callpath elements with ` => `, sometimes
 * with extra spaces (`"A => MPI_Finalize()   => B"`). ParaProf collapses runs of two or more
 * spaces into one and drops trailing runs (`Utility.removeRuns`), so the flat timer `"MPI_Init()  "`
 * and the path element `"MPI_Init()"` name the same routine. We do the same and also trim both
 * ends, so a timer's canonical name never starts or ends with a space.
 */

/** Separator between the elements of a callpath name. */
export const CALLPATH_SEPARATOR = " => ";

/** Separator between a context user event's name and its callpath (`event : A => B`). */
export const EVENT_CONTEXT_SEPARATOR = " : ";

/** TAU's source location in a timer name: ` [{file.c} {12,1}-{40,1}]` or ` [{file.c} {8673}]`. */
const SOURCE_LOCATION = /\s*\[\{[^\]]*\]/g;

/**
 * A timer name without the source locations TAU appends to its routines (`void solve() C
 * [{solve.c} {12,1}-{40,1}]` is `void solve() C`): the routine itself, which another build of the
 * same code may place at other lines.
 */
export function withoutSourceLocation(name: string): string {
  return name.replace(SOURCE_LOCATION, "");
}

/**
 * Collapses runs of whitespace into one space and trims both ends, as ParaProf does for every
 * timer and user-event name. Tabs and other whitespace count as spaces here.
 */
export function normalizeName(name: string): string {
  // Fast path: most names have no double space, no tab and no padding.
  if (!/\s\s|[\t\r\n\f\v]|^\s|\s$/.test(name)) return name;
  return name.replace(/\s+/g, " ").trim();
}

/**
 * Splits a timer name into its callpath elements: `"A => B => C"` gives `["A","B","C"]`, a flat
 * name gives `[name]`. Elements are normalized ({@link normalizeName}); empty elements (a name
 * such as `"=> B"`) are kept as empty strings so that no information is silently dropped.
 */
export function parseCallpath(name: string): string[] {
  if (name.indexOf("=>") < 0) return [normalizeName(name)];
  return name.split("=>").map(normalizeName);
}

/** The canonical name of a callpath: its normalized elements joined with `" => "`. */
export function callpathName(path: readonly string[]): string {
  return path.map(normalizeName).join(CALLPATH_SEPARATOR);
}

/** The canonical form of any timer name (flat or callpath). */
export function canonicalTimerName(name: string): string {
  return name.indexOf("=>") < 0 ? normalizeName(name) : callpathName(parseCallpath(name));
}

/** A user-event name split into the event and its optional callpath context. */
export interface UserEventName {
  /** Name without the context, e.g. `"Message size for broadcast"`. */
  readonly base: string;
  /** Callpath context of a context event (`event : A => B` gives `["A","B"]`), else undefined. */
  readonly context: readonly string[] | undefined;
}

/**
 * Splits a user-event name at the first `" : "` into the event and its callpath context, as TAU
 * names context events (`"Message size for reduce : MPI_Reduce()"`).
 */
export function parseUserEventName(name: string): UserEventName {
  const n = normalizeName(name);
  const at = n.indexOf(EVENT_CONTEXT_SEPARATOR);
  if (at < 0) return { base: n, context: undefined };
  return { base: n.slice(0, at), context: parseCallpath(n.slice(at + EVENT_CONTEXT_SEPARATOR.length)) };
}

/** A timer name carrying TAU_PARAM parameter values, `name [ <size> = <100> ]`. */
export interface ParameterizedName {
  /** Routine name without the parameter brackets. */
  readonly base: string;
  /** Parameter name to value, as written (values are strings; use `Number()` for numbers). */
  readonly parameters: ReadonlyMap<string, string>;
}

const PARAM_RE = /\[\s*<([^<>]*)>\s*=\s*<([^<>]*)>\s*\]\s*$/;

/**
 * Parses the TAU_PARAM suffixes of a flat timer name: `"f [ <size> = <100> ]"` gives base `"f"`
 * and parameters `{size: "100"}`. Several suffixes are allowed. Returns undefined when the name
 * has no parameter suffix (and for callpath names, whose last element should be parsed instead).
 */
export function parseParameterizedName(name: string): ParameterizedName | undefined {
  let rest = normalizeName(name);
  if (rest.indexOf("=>") >= 0) return undefined;
  const found: [string, string][] = [];
  for (;;) {
    const m = PARAM_RE.exec(rest);
    if (!m) break;
    found.push([m[1].trim(), m[2].trim()]);
    rest = rest.slice(0, m.index).trimEnd();
  }
  if (found.length === 0) return undefined;
  found.reverse();
  return { base: rest, parameters: new Map(found) };
}
