/**
 * `us` microseconds as a whole number of nanoseconds, the unit trace viewers keep times in
 * (Perfetto reads a trace-event file's `ts` and `dur` each rounded to nanoseconds).
 * @internal
 */
export function nanoseconds(us: number): number {
  return Math.round(us * 1000);
}
