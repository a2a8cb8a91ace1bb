import { describe, expect, it } from "vitest";
import * as ccasim from "../../index.js";
import { MACHINE_PARAMS, machinePresets } from "../../machine/index.js";

describe("a machine preset's parameters from the library", () => {
  it("lists every parameter the preset sets, with its value in base units, meaning and source", () => {
    const params = ccasim.presetParameters(machinePresets.get("xeon-2.8ghz-512k"));
    const l2 = params.find((p) => p.key === "l2.size")!;
    expect(l2).toEqual({
      key: "l2.size",
      value: 524288,
      meaning: "Second-level cache capacity; a multiple of line x assoc.",
      source: "paper 000, section 5: '512 kB caches'; Xeon (Northwood) 512 KB L2",
      calibrated: false,
      defaulted: false,
    });
  });

  it("gives the optional keys the preset leaves out the value the node model then takes, marked defaulted", () => {
    const params = ccasim.presetParameters(machinePresets.get("xeon-2.8ghz-512k"));
    expect(params.find((p) => p.key === "l1.sector")).toMatchObject({ value: 64, defaulted: true, source: "not set by the preset: the default, l1.line" });
    expect(params.find((p) => p.key === "memory.size")).toMatchObject({ value: null, defaulted: true });
    expect(params.find((p) => p.key === "l1.integerOnly")).toMatchObject({ value: false, defaulted: true });
  });

  it("follows the order of the machine's parameter documentation", () => {
    for (const preset of machinePresets.all()) {
      const keys = ccasim.presetParameters(preset).map((p) => p.key);
      const order = MACHINE_PARAMS.map((p) => p.name);
      expect(keys).toEqual(order.filter((k) => keys.includes(k)));
      for (const p of preset.params) expect(keys).toContain(p.name);
    }
  });
});
