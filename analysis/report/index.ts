/**
 * Reports: one self-contained HTML page per run or study, with charts written in Vega-Lite and
 * rendered to inline SVG in Node (no network, no script in the page).
 *
 * @packageDocumentation
 */
export { renderSvg, type ReportChart } from "./render.js";
export { renderReportHtml, type ReportDocument, type ReportSection, type ReportTable } from "./html.js";
export { recordRoles, recordPoints, levelPoints, digestRecords, RecordDigester, type RecordDigest, type RecordRoles, type RecordPoint, type LevelPoint } from "./data.js";
export { timeVsQChart, stridedRatioChart, modeRatioBySweepChart, baselineMode, messagePassingChart, levelChart, powerEnergyChart, topTimersChart, heatmapChart, sweepLineChart, timeVsQBySweepChart, fittableRoutines, type SweepContext } from "./charts.js";
export { meanSdVsQChart, meanSdPoints, type MeanSdPoint } from "./mean-sd-chart.js";
export { trialReport, readTrialInput, type TrialInput } from "./trial-report.js";
export { studyReport } from "./study-report.js";
export { buildReport, defaultReportPath, reportInput, writeReport, type ReportOptions } from "./write-report.js";
