/**
 * Model fitting: model families by name, numerically sound least squares (Householder QR on
 * scaled columns), selection by leave-one-out SMAPE or adjusted R², separate mean and standard
 * deviation models, change-point detection, and output as readable formulas and mathjs
 * expressions.
 *
 * @packageDocumentation
 */
export { leastSquares, RankDeficientError, type LeastSquaresResult } from "./least-squares.js";
export { smape, normalQuantile, studentTQuantile } from "./statistics.js";
export { type BasisTerm, type Hypothesis, pmnfTerm, hingeTerm, constantTerm, lnTerm, linearTerm } from "./hypothesis.js";
export {
  fitFamilies,
  parseFamilySpec,
  polynomialHypothesis,
  powerLawHypothesis,
  pmnfHypothesis,
  segmentedHypothesis,
  EXTRAP_EXPONENTS,
  EXTRAP_NEGATIVE_EXPONENTS,
  EXTRAP_NEGATIVE_LOG_EXPONENTS,
  type FitFamily,
  type FamilyOptions,
  type DataShape,
} from "./families.js";
export { FittedModel, fitHypothesis, type Coefficient, type FitQuality, type Interval, type FitHypothesisOptions } from "./fitted-model.js";
export {
  fitModels,
  formulaVariable,
  isFormulaVariable,
  groupByQ,
  termsSignificant,
  scatterWeights,
  type FitOptions,
  type FitReport,
  type FitInput,
  type GroupedPoints,
  type ChangePoint,
  type SelectionCriterion,
} from "./fit-models.js";
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
  type RecordSelection,
  type RecordObservationSet,
  type ParameterTimerSelection,
  type AcrossTrialsSelection,
  type TrialParameter,
} from "./from-trial.js";
export { observationsFromExtrap, type ExtrapSelection, type ExtrapObservations } from "./from-extrap.js";
