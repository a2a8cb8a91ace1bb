/**
 * The profile layer: the measurement data model ({@link Trial}, {@link TrialBuilder}), derived
 * views, and the file formats real tools use: TAU text profiles (read and write), ParaProf packed
 * profiles (read), per-invocation records (CSV, JSON Lines) and Extra-P inputs.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./names.js";
export * from "./model.js";
export * from "./builder.js";
export * from "./invariants.js";
export * from "./derived.js";
export * from "./views.js";
export {
  readTauProfile,
  parseTauProfiles,
  listTauProfileFiles,
  hasTauProfileFiles,
  parseProfileFileName,
  type TrialReadOptions,
  type TauMetricFiles,
  type TauProfileFileText,
} from "./tau/text-read.js";
export {
  writeTauProfile,
  formatTauProfile,
  formatTauProfileFile,
  formatTauNumber,
  isTimeMetric,
  metricFolderName,
  METRIC_FOLDER_PREFIX,
  TAU_ROOT_TIMER,
  type WriteTauOptions,
} from "./tau/text-write.js";
export { readPackedProfile, parsePackedProfile } from "./tau/ppk-read.js";
export { readCubeProfile, parseCubeProfile } from "./cube/cube-read.js";
export { formatCubeProfile, writeCubeProfile } from "./cube/cube-write.js";
export { formatPackedProfile, writePackedProfile } from "./tau/ppk-write.js";
export { formatTauXmlProfile, writeTauXmlProfile } from "./tau/xml-write.js";
export { readTauXmlProfile, parseTauXmlProfiles, isTauXmlText, parseSnapshotFileName, listTauXmlFiles, type TauXmlFileText, type TauXmlReadOptions } from "./tau/snapshot-read.js";
export { parseMetadataXml, writeMetadataXml } from "./tau/xml.js";
export { readTrial, recordsFileIn, profileFolderOf, inputReadKey, detectTrialFormat, measurementFileKind, RECORD_FILE_NAMES, type TrialFormat, type ReadTrialOptions } from "./read.js";
export { parseThreadName, describeThreads } from "./thread-name.js";
export {
  holdsWorkingDirectory,
  inputReplacedBy,
  inputFolderHolding,
  unwritableParent,
  outputPathProblem,
  checkOutputPath,
  namedPath,
  OutputPathError,
  type CommandInput,
  type OutputInput,
  type OutputPathOptions,
} from "./protected-paths.js";
export {
  temporarySibling,
  temporaryTarget,
  trackTemporary,
  trackedTemporaries,
  onTemporaryTracked,
  onTemporaryForgotten,
  removeTrackedTemporaries,
  removeStaleTemporaries,
  processExists,
  type TrackTemporaryOptions,
} from "./temporary-files.js";
export { RUN_PROFILE_FOLDER, RUN_SUMMARY_FILE, RUN_SUMMARY_MARK, RUN_REPORT_FILE, RUN_FILES, isRunFolder, runSummaryOf, runFileAdvice, unmeasuredRunText } from "./run-folder.js";
export { parseRecordsCsv, parseRecordsJsonl, readRecords, forEachRecord, recordsFormatOf } from "./records.js";
export * from "./records-write.js";
export { recordAt, recordList, recordTable, recordCount, type RecordKind, type RecordTable, type RecordSource } from "./record-table.js";
export { RECORD_COLUMNS, RECORD_VALUE_FIELDS, recordValueOf, recordValueName, describeRecordValues, type RecordValue, type RecordValueField } from "./record-columns.js";
export { TEXT_PIECE_CHARS, writeTextFileAtomically } from "./atomic-text-file.js";
export { ChromeTraceFile, TraceIntervals, type ChromeTraceLayout, type ChromeTraceObject, type TraceLane } from "./chrome-trace.js";
export * from "./extrap.js";
export {
  profileTable,
  formatProfileTable,
  formatPprofTime,
  formatMicroseconds,
  PROFILE_TIME_UNITS,
  type ProfileTimeUnit,
  type FormatProfileTableOptions,
  resolveView,
  resolveThreadIndex,
  defaultMetric,
  TABLE_SORT_KEYS,
  type TableSortKey,
  type TableRow,
  type ProfileTable,
  type ProfileTableOptions,
} from "./table.js";
export { userEventTable, formatUserEventTable, type UserEventTable, type UserEventRow } from "./user-event-table.js";
export { diffUserEvents, formatUserEventDiff, type UserEventDiff, type UserEventDiffRow } from "./event-diff.js";
export { diffProfiles, formatProfileDiff, percentChange, PROFILE_DIFF_SORT_KEYS, type ProfileDiff, type ProfileDiffRow, type ProfileDiffOptions, type ProfileDiffSortKey, type FormatProfileDiffOptions } from "./diff.js";
export * from "./convert.js";
export * from "./table-csv.js";
export { selectMetrics } from "./select-metrics.js";
export { fileErrorText, wordFileErrors } from "./file-error.js";
export { inputIsDirectory } from "./gzip-input.js";
export { INPUT_FILE_KEYS, keysOfKind, otherInputFileKindText, type InputFileKind } from "./input-file-kind.js";
export { makeOutputFolder } from "./output-folder.js";
export { formatPath, parseKeyPath, type KeyPath } from "./key-path.js";
export { parseLocatedYaml, locateNearest, YamlTextError, type LocatedYaml, type SourcePosition, type YamlProblem } from "./yaml-source.js";
