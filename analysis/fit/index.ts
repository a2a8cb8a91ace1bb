/**
 * Model fitting: model families by name, numerically sound least squares (Householder QR on
 * scaled columns), selection by leave-one-out SMAPE or adjusted R², separate mean and standard
 * deviation models (the latter never negative), change-point detection with the two-segment model
 * competing for the mean, predictions kept at or above 0 for times and counts, and output as
 * readable formulas and mathjs expressions.
 *
 * @packageDocumentation
 */
export { leastSquares, RankDeficientError, type LeastSquaresResult } from "./least-squares.js";
export { smape, normalQuantile, studentTQuantile, studentTCdf, regularizedIncompleteBeta, logGamma, trigamma, sdSamplingVariance, logSdSamplingVariance } from "./statistics.js";
export { type BasisTerm, type Hypothesis, pmnfTerm, hingeTerm, changePointText, constantTerm, lnTerm, linearTerm } from "./hypothesis.js";
export {
  fitFamilies,
  parseFamilySpec,
  polynomialHypothesis,
  powerLawHypothesis,
  pmnfHypothesis,
  segmentedHypothesis,
  changePointCandidates,
  EXTRAP_EXPONENTS,
  EXTRAP_NEGATIVE_EXPONENTS,
  EXTRAP_NEGATIVE_LOG_EXPONENTS,
  type FitFamily,
  type FamilyOptions,
  type DataShape,
} from "./families.js";
export { FittedModel, fitHypothesis, termsSignificant, type Coefficient, type FitQuality, type Interval, type FitHypothesisOptions } from "./fitted-model.js";
export {
  fitModels,
  formulaVariable,
  isFormulaVariable,
  isMathjsName,
  groupByQ,
  scatterWeights,
  type FitOptions,
  type FitReport,
  type FitInput,
  type FitDefaults,
  type GroupedPoints,
} from "./fit-models.js";
export { neverNegative, parametersOf, scoresTie, type Screening, type SkippedHypothesis, type SelectionCriterion } from "./screening.js";
export { type ChangePoint } from "./change-point.js";
export { fitStdDev, sdDeparture, SD_DEPARTURE_LIMIT, type StdDevOptions, type StdDevFit, type StdDevDeparture } from "./std-dev.js";
export { predictAt, type Prediction } from "./prediction.js";
export { fitPowerLaw, fitPolynomial } from "./shortcuts.js";
export {
  observationsFromRecords,
  RecordObservations,
  observationsFromRecordInputs,
  observationsFromParameterTimers,
  observationsAcrossTrials,
  trialParameter,
  resolveParameterRoutine,
  type Observations,
  type PartialThreads,
  type FittedQuantity,
  type RecordSelection,
  type RecordObservationSet,
  type ParameterTimerSelection,
  type AcrossTrialsSelection,
  type TrialParameter,
} from "./from-trial.js";
export { differingComponentSettings, type SettingDifference } from "./run-settings.js";
export { EXTRAP_FAMILIES, EXTRAP_FIT_DEFAULTS, observationsFromExtrap, type ExtrapSelection, type ExtrapObservations } from "./from-extrap.js";
export { EXTRAP_MIN_POINTS, fitWarnings, lowestWithin, negativeWarning, zeroMeansWarning, type FitWarning } from "./warnings.js";
export { EXTRAP_MIN_TERM_CONTRIBUTION, EXTRAP_CLEAN_CONSTANT, extrapScore, type SelectionRule } from "./extrap-rule.js";
