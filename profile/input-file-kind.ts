/**
 * The kinds of YAML file ccasim reads as input — a scenario (`ccasim run`), a sweep file
 * (`ccasim sweep`), a selection assembly (`ccasim select`) and a power constants file (`ccasim
 * power --constants-file`) — told apart by the top-level keys only each kind has, so that a file
 * given to the wrong command is named for what it is, with the command that takes it, rather than
 * reported key by key against the wrong schema.
 *
 * @packageDocumentation
 */

/** A kind of ccasim input file. */
export type InputFileKind = "scenario" | "sweep" | "assembly" | "power";

/**
 * The top-level keys only files of each kind have (`name`, `seed` and `description` are shared;
 * so is `components`, see {@link ALSO_HAS}). A file with one of them is of that kind, whatever
 * else is misspelt in it.
 */
export const INPUT_FILE_KEYS: Readonly<Record<InputFileKind, readonly string[]>> = {
  scenario: ["machine", "workload", "assembly", "program", "metrics", "outputs"],
  sweep: ["scenario", "axes", "zip", "random", "replications"],
  assembly: ["components", "callGraph", "interactions"],
  power: ["maxPower", "idlePower", "latencies", "counters", "processors"],
};

/**
 * Top-level keys a kind's files have besides their own ({@link INPUT_FILE_KEYS}) that another
 * kind claims: a power constant set lists its `components` as an assembly does. A file with keys
 * of both kinds whose keys of the other kind are all of these is of this kind.
 */
const ALSO_HAS: Readonly<Partial<Record<InputFileKind, readonly string[]>>> = {
  power: ["components"],
};

/** Kinds whose files may hold a list of documents of the kind (a list of power constant sets). */
const LIST_KINDS: ReadonlySet<InputFileKind> = new Set(["power"]);

/** How each kind is named, and what reads it (`{file}` is the file as given). */
const KINDS: Readonly<Record<InputFileKind, { name: string; use: string }>> = {
  scenario: { name: "a scenario", use: "run it with 'ccasim run {file}', or name it under 'scenario:' in a sweep file" },
  sweep: { name: "a sweep file", use: "run it with 'ccasim sweep {file}' (check it with 'ccasim validate {file}')" },
  assembly: {
    name: "a selection assembly",
    use: "choose its implementations with 'ccasim select {file} --input <name>=<value>'",
  },
  power: {
    name: "a power constants file",
    use: "give it to 'ccasim power --constants-file {file} <trial>' (list its sets with 'ccasim power --constants-file {file} --list-constants')",
  },
};

/**
 * The keys of `kind` that the parsed file `value` has at its top level (none for a non-map); for a
 * kind whose files may be a list of documents, those the list's mappings have.
 */
export function keysOfKind(value: unknown, kind: InputFileKind): string[] {
  if (Array.isArray(value)) return LIST_KINDS.has(kind) ? [...new Set(value.flatMap((item) => (Array.isArray(item) ? [] : keysOfKind(item, kind))))] : [];
  if (value === null || typeof value !== "object") return [];
  return INPUT_FILE_KEYS[kind].filter((k) => Object.hasOwn(value, k));
}

/**
 * Why the parsed file `value` is not a file of kind `expected`: it has the keys of exactly one
 * other kind, and none of the expected kind's but those that other kind has too (a power
 * constant set's `components`, which an assembly has); keys of the other kind that the expected
 * kind has too ({@link ALSO_HAS}: a constant set's `components` alone) do not show it. Names the
 * kind it is, the keys that show it and the command that reads it: `this is a sweep file (it has 'scenario', 'axes'), not a scenario: run
 * it with 'ccasim sweep s.yaml' ...`.
 * @param file - the file as given, put into the command shown
 * @returns the reason in words, or undefined when the file may be of the expected kind (its own
 *   schema then says what is wrong with it)
 */
export function otherInputFileKindText(value: unknown, file: string, expected: InputFileKind): string | undefined {
  const only = onlyKind(value);
  if (only === undefined || only.kind === expected) return undefined;
  // A constant set with no power constant written yet has only the 'components' an assembly has.
  if (only.keys.every((k) => ALSO_HAS[expected]?.includes(k))) return undefined;
  const it = KINDS[only.kind];
  return `this is ${it.name} (it has ${only.keys.map((k) => `'${k}'`).join(", ")}), not ${KINDS[expected].name}: ${it.use.replaceAll("{file}", file)}`;
}

/**
 * The one kind whose keys the parsed file `value` has at its top level, with those keys; undefined
 * for none or several. A kind whose keys the file has are all keys another kind of the file also
 * has ({@link ALSO_HAS}: an assembly's `components` in a power constant set) does not count.
 */
function onlyKind(value: unknown): { kind: InputFileKind; keys: string[] } | undefined {
  const found = (Object.keys(INPUT_FILE_KEYS) as InputFileKind[]).map((kind) => ({ kind, keys: keysOfKind(value, kind) })).filter((x) => x.keys.length > 0);
  const kinds = found.filter((x) => !found.some((y) => y !== x && x.keys.every((k) => ALSO_HAS[y.kind]?.includes(k))));
  return kinds.length === 1 ? kinds[0] : undefined;
}

/**
 * What kind of ccasim input the parsed file `value` is, in words with the command that reads it
 * (`a sweep file (it has 'scenario', 'axes'): run it with 'ccasim sweep s.yaml' ...`), when its
 * top-level keys are those of exactly one kind; else undefined. For a command that reads
 * measurements, to name an input file given in their place.
 */
export function inputFileKindText(value: unknown, file: string): string | undefined {
  const only = onlyKind(value);
  if (only === undefined) return undefined;
  const it = KINDS[only.kind];
  return `${it.name} (it has ${only.keys.map((k) => `'${k}'`).join(", ")}): ${it.use.replaceAll("{file}", file)}`;
}
