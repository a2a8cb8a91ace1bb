/**
 * Errors and warnings of the profile layer. Every error caused by a file carries the file, the
 * line (1-based, when the format has lines) and what was expected, and has `isInputError = true`
 * so the CLI exits with code 2.
 */

/** Base class of every error thrown by `profile/`. */
export class ProfileError extends Error {
  /** Marks errors caused by the caller's input (the CLI maps them to exit code 2). */
  readonly isInputError: boolean = true;
  constructor(message: string) {
    super(message);
    this.name = "ProfileError";
  }
}

/** An output that exists and holds files, which a writer replaces only when told to (`overwrite`). */
export class OutputExistsError extends ProfileError {
  /** @param path - the output that exists */
  constructor(readonly path: string) {
    super(`'${path}' exists and is not empty (it is replaced only with the option overwrite)`);
    this.name = "OutputExistsError";
  }
}

/**
 * A malformed or unreadable measurement file. `line` is 1-based (undefined for binary formats,
 * where `offset` gives the byte offset in the decompressed stream instead).
 */
export class ProfileFormatError extends ProfileError {
  constructor(
    /** File (or directory) being read; for a member of an archive, the file and the member (`p.cubex (anchor.xml)`). */
    readonly file: string,
    /** 1-based line number, when the format has lines. */
    readonly line: number | undefined,
    /** What was expected and what was found. */
    readonly detail: string,
    /** Byte offset, for binary formats. */
    readonly offset?: number,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ""}${offset !== undefined ? ` (byte ${offset})` : ""}: ${detail}`);
    this.name = "ProfileFormatError";
  }
}

/** Invalid use of the data model: an unknown thread, timer or metric index, a NaN value, a name that a format cannot hold. */
export class ProfileModelError extends ProfileError {
  constructor(message: string) {
    super(message);
    this.name = "ProfileModelError";
  }
}

/** What kind of inconsistency a {@link ProfileWarning} reports. */
export type ProfileWarningKind =
  /** A timer's exclusive value exceeds its inclusive value. */
  | "exclusive-exceeds-inclusive"
  /** A callpath child's inclusive value exceeds its parent's inclusive value. */
  | "child-exceeds-parent"
  /** A flat timer's inclusive value differs from the sum over root-anchored callpaths ending in it. */
  | "flat-differs-from-callpaths"
  /** A negative value was read (ParaProf clamps these to zero; we keep them and warn). */
  | "negative-value"
  /** A file lists the same user event twice for one thread; the lines were merged as ParaProf merges them. */
  | "repeated-lines"
  /** The files of a trial disagree on its layout (a metric without a thread's file, calls that differ between metrics' files). */
  | "format";

/**
 * What each {@link ProfileWarningKind} reports, as a count names it in a summary (`8 files listing
 * a user event twice (merged)`): each phrase follows a number.
 */
export const PROFILE_WARNING_KINDS: Readonly<Record<ProfileWarningKind, string>> = {
  "exclusive-exceeds-inclusive": "timer(s) with exclusive above inclusive",
  "child-exceeds-parent": "callpath(s) above their parent",
  "flat-differs-from-callpaths": "flat timer(s) unlike the sum of their callpaths",
  "negative-value": "file(s) with negative values",
  "repeated-lines": "file(s) listing a user event twice (merged)",
  format: "metric file(s) disagreeing on threads or calls",
};

/**
 * The load-time warnings in one line, counted by kind in the order of
 * {@link PROFILE_WARNING_KINDS}: `8 load-time warning(s): 8 file(s) listing a user event twice
 * (merged)`; "" for none.
 */
export function summarizeProfileWarnings(warnings: readonly ProfileWarning[]): string {
  if (warnings.length === 0) return "";
  const counts = new Map<ProfileWarningKind, number>();
  for (const w of warnings) counts.set(w.kind, (counts.get(w.kind) ?? 0) + 1);
  const parts = (Object.keys(PROFILE_WARNING_KINDS) as ProfileWarningKind[]).filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${PROFILE_WARNING_KINDS[k]}`);
  return `${warnings.length} load-time warning(s): ${parts.join(", ")}`;
}

/** A load-time inconsistency: the trial loads, but the numbers disagree with each other. */
export interface ProfileWarning {
  readonly kind: ProfileWarningKind;
  /** Human-readable sentence naming the thread, timer and metric involved. */
  readonly message: string;
  /** File where the inconsistency was seen, when known. */
  readonly file?: string;
  /** Thread index in the trial, when the warning concerns one thread. */
  readonly thread?: number;
  /** Timer index in the trial. */
  readonly timer?: number;
  /** Metric index in the trial. */
  readonly metric?: number;
}
