import { describe, expect, it } from "vitest";
import { AnalysisInputError, callTreeFromTrial, estimateTrialPower, observationsAcrossTrials, observationsFromParameterTimers, powerConstantSets, viewOf } from "../../analysis/index.js";
import { readTrial } from "../../profile/index.js";

const wrap = readTrial("../shared/data/tau/edge-cases/examples/wrap");

describe("a view given as text", () => {
  it.each(["avg", "0,0,0", "Mean"])("refuses '%s', which names no derived view, naming the views there are", (text) => {
    expect(() => viewOf(wrap, text as never)).toThrow(AnalysisInputError);
    expect(() => viewOf(wrap, text as never)).toThrow(`unknown view '${text}'`);
    expect(() => viewOf(wrap, text as never)).toThrow("use one of mean, min, max, total, stddev, a thread's index or { node, context, thread }");
  });

  it("suggests the nearest derived view", () => {
    expect(() => viewOf(wrap, "maen" as never)).toThrow("unknown view 'maen' (did you mean 'mean'?)");
  });

  it("is refused alike by the analyses that take a view", () => {
    const view = "0,0,0" as never;
    expect(() => observationsFromParameterTimers(wrap, { routine: "__wrap_dgemm", parameter: "size", view })).toThrow(AnalysisInputError);
    expect(() => callTreeFromTrial(wrap, { view })).toThrow(AnalysisInputError);
    expect(() => estimateTrialPower(wrap, powerConstantSets.get("itanium2-madison"), { view })).toThrow(AnalysisInputError);
  });

  it("takes every derived view and a thread by index or by name", () => {
    for (const kind of ["mean", "min", "max", "total", "stddev"] as const) expect(viewOf(wrap, kind).label).toBe(kind);
    expect(viewOf(wrap, 1).label).toBe(viewOf(wrap, { node: 1, context: 0, thread: 0 }).label);
  });
});

describe("the kind of values given as text", () => {
  it("is refused unless inclusive or exclusive by every analysis that takes one", () => {
    const kind = "exclusiv" as never;
    const message = "kind must be inclusive or exclusive, got 'exclusiv'";
    expect(() => observationsFromParameterTimers(wrap, { routine: "__wrap_dgemm", parameter: "size", kind })).toThrow(message);
    expect(() => observationsAcrossTrials([wrap], { parameter: { ranks: true }, timer: "MPI_Init()", kind })).toThrow(message);
    expect(() => estimateTrialPower(wrap, powerConstantSets.get("itanium2-madison"), { kind })).toThrow(AnalysisInputError);
    expect(() => estimateTrialPower(wrap, powerConstantSets.get("itanium2-madison"), { kind })).toThrow(message);
  });

  it("reads exclusive values when asked, inclusive by default", () => {
    const sel = { routine: "__wrap_dgemm", parameter: "size" };
    expect(observationsFromParameterTimers(wrap, sel).t).toEqual(observationsFromParameterTimers(wrap, { ...sel, kind: "inclusive" }).t);
    expect(observationsFromParameterTimers(wrap, { ...sel, kind: "exclusive" }).quantity?.kind).toBe("exclusive");
  });
});
