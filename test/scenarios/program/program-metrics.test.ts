import { describe, expect, it } from "vitest";
import { viewOf } from "../../../index.js";
import { executeScenario, loadScenarioText } from "../../../scenarios/index.js";
import { programScenario } from "./helpers.js";

const program = { main: [{ action: "A", cost: 5 }] };

describe("the metrics of a program model", () => {
  it("refuses at load a counter that actions, which cost time only, cannot advance", () => {
    expect(() => loadScenarioText(programScenario(program, { metrics: ["TIME", "PAPI_L1_DCM"] }), "metrics.yaml")).toThrow(
      /metrics\.yaml:\d+:\d+: metrics\[1\]: metric 'PAPI_L1_DCM' cannot be measured in a program model: actions have costs in time only \(use TIME, PAPI_TOT_CYC\)/,
    );
  });

  it("accepts TIME and the cycle counter", () => {
    expect(() => loadScenarioText(programScenario(program, { metrics: ["TIME", "PAPI_TOT_CYC"] }), "metrics.yaml")).not.toThrow();
  });

  it("counts the whole cycles of each timer's time at the 700 MHz clock", () => {
    // 5.3001 us of an action: 3710 cycles, a whole count, as a PMU's, where time x clock is 3710.07.
    const art = executeScenario(loadScenarioText(programScenario({ main: [{ action: "A", cost: 5.3001 }] }, { metrics: ["TIME", "PAPI_TOT_CYC"] }), "metrics.yaml"));
    const trial = art.trial!;
    const view = viewOf(trial, 0);
    const a = trial.timers.find((t) => t.name === "A")!;
    expect(view.inclusive[0][a.index]).toBeCloseTo(5.3001, 12);
    for (const t of trial.timers) for (const v of [view.inclusive[1][t.index], view.exclusive[1][t.index]]) expect(Number.isInteger(v), t.name).toBe(true);
    expect(view.inclusive[1][a.index]).toBe(3710);
  });
});
