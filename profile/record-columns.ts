/**
 * Column names of the record files (CSV and JSON Lines), which carry their units:
 *
 * ```
 * component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q,counter:PAPI_FP_INS [count]
 * ```
 */

/** Column names of the fixed record fields, with units. */
export const RECORD_COLUMNS = {
  component: "component",
  port: "port",
  method: "method",
  rank: "rank",
  start: "start [us]",
  wallTime: "wall_time [us]",
  mpiTime: "mpi_time [us]",
  computeTime: "compute_time [us]",
} as const;

/** The fixed columns in file order. @internal */
export const FIXED_COLUMNS: readonly string[] = Object.values(RECORD_COLUMNS);
/** @internal */
export const PARAM_PREFIX = "param:";
/** @internal */
export const COUNTER_PREFIX = "counter:";
/** @internal */
export const COUNTER_SUFFIX = " [count]";

/** The column of parameter `name`. @internal */
export function parameterColumn(name: string): string {
  return PARAM_PREFIX + name;
}

/** The column of counter `name`. @internal */
export function counterColumn(name: string): string {
  return COUNTER_PREFIX + name + COUNTER_SUFFIX;
}
