import { describe, expect, it } from "vitest";

describe("the package entry point", () => {
  it("re-exports each layer's public face under the package name", async () => {
    const m = await import("ccasim");
    for (const name of [
      "Simulation",
      "loadScenario",
      "executeScenario",
      "runScenario",
      "readTrial",
      "writeTauProfile",
      "MpiWorld",
      "NodeModel",
      "prepareAssembly",
      "runAssembly",
      "fitModels",
      "pruneCallGraph",
      "selectImplementations",
      "estimatePower",
    ])
      expect(typeof (m as Record<string, unknown>)[name], name).toBe("function");
  });
});
