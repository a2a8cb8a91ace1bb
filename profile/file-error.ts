/**
 * File system errors in words: `no such file` rather than `ENOENT`, for the messages of every
 * command that reads a file the user names.
 *
 * @packageDocumentation
 */

/** Errno codes a user may meet reading a file they named, in words. */
const WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many open files",
  ENFILE: "too many open files",
  EIO: "an input/output error",
  ENXIO: "no such device",
  EAGAIN: "not readable now (try again)",
};

/**
 * Why reading a file failed, in words (`no such file`, `is a directory, not a scenario file`),
 * for a file system error; the message of any other error.
 * @param what - what the file should be, for a directory given in its place ("scenario file")
 */
export function fileErrorText(e: unknown, what = "file"): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EISDIR") return `is a directory, not a ${what}`;
  if (code !== undefined && Object.hasOwn(WORDS, code)) return WORDS[code]!;
  return e instanceof Error ? e.message : String(e);
}

/**
 * `message` with Node's file system error text (`ENOENT: no such file or directory, stat 'x'`)
 * put in words (`no such file`); other text as it is. For messages built elsewhere from a file
 * system error's message.
 */
export function wordFileErrors(message: string): string {
  return message.replace(/\b(E[A-Z]+): [^,\n]*, \w+(?: '[^'\n]*'(?: -> '[^'\n]*')?)?/g, (all, code: string) =>
    code === "EISDIR" ? "is a directory, not a file" : Object.hasOwn(WORDS, code) ? WORDS[code]! : all,
  );
}
