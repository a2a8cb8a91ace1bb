import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../../scenarios/index.js";
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
});
