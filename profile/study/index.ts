/**
 * The study database: sweep results in an embedded DuckDB file, after TAUdb's schema (point/trial,
 * parameter, thread, timer, callpath, metric, timer_value) plus records and errors; wall-clock
 * figures in their own table. See docs/study-schema.md.
 *
 * @packageDocumentation
 */
export { STUDY_TABLES, TIMING_TABLE, META_TABLE, studyDdl, type StudyTable, type StudyColumn } from "./schema.js";
export { pointRows, compactRows, tableRowCount, columnLength, dictColumn, numericColumn, trialRows, recordRows, type PointRows, type PointOutcome, type PointIdentity, type TableRows, type Column, type DictColumn, type NullableColumn } from "./rows.js";
export { StudyStore, StudyError, studyTables, type QueryResult, type OpenOptions } from "./store.js";
export { mergeShards, type MergeResult, type ShardMerged } from "./merge.js";
export { studyDigest } from "./digest.js";
export { sqlString } from "./sql-text.js";
export { uniqueColumnNames } from "./column-names.js";
export { isStudyDatabase } from "./database-file.js";
export { studyObservations, type StudyObservations, type StudySelection } from "./extract.js";
