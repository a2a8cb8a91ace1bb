/**
 * Analysis across a study (a sweep): T as a function of Q and of a swept machine parameter.
 *
 * @packageDocumentation
 */
export { fitAcrossSweep, type SweepGroup, type FitAcrossOptions, type FitAcrossReport, type OwnChange, type PerValueFit } from "./fit-across.js";
