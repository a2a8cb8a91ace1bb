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

describe("the package entry point's names", () => {
  it("does not export file-local helpers under generic names (pick, rank, convert, forTrips, whileBound)", async () => {
    const m = (await import("ccasim")) as Record<string, unknown>;
    // Each was a helper of one file or folder (power's counter lookup, fit's candidate sort, the
    // program model's C conversion, loop trip count and loop-bound error): at the package's top
    // level the name says nothing of what it does.
    for (const name of ["pick", "rank", "convert", "forTrips", "whileBound"]) expect(m[name], name).toBeUndefined();
  });
});

describe("the package's files", () => {
  it("hold every example input in scenarios/, the measured table validate-model's example reads included", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const files = (JSON.parse(readFileSync("package.json", "utf8")) as { files: string[] }).files;
    const globs = files.filter((f) => f.startsWith("scenarios/")).map((f) => new RegExp(`^${f.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`));
    const inputs = readdirSync("scenarios").filter((f) => /\.(ya?ml|csv|json)$/.test(f));
    expect(inputs).toContain("lapw0-measured.csv");
    for (const f of inputs) expect(globs.some((g) => g.test(`scenarios/${f}`)), f).toBe(true);
  });
});
