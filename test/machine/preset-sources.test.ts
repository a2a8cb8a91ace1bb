import { describe, expect, it } from "vitest";
import { machinePresets, interconnectPresets } from "../../machine/index.js";

function source(preset: string, key: string): { source: string; calibrated?: boolean } {
  const s = machinePresets.get(preset).sources[key];
  if (s === undefined) throw new Error(`${preset} has no source for ${key}`);
  return s;
}

describe("xeon-2.8ghz-512k against Intel's documents and published measurements", () => {
  const xeon = machinePresets.get("xeon-2.8ghz-512k").config;

  it("takes the L2 hit latency measured on the Northwood core, 16 cycles", () => {
    expect(xeon.l2?.latency).toBe(16);
    expect(source("xeon-2.8ghz-512k", "l2.latency").source).toMatch(/16 cycles.*Cachemem.*ScienceMark/);
    expect(source("xeon-2.8ghz-512k", "l2.latency").source).toMatch(/Table 1-1.*7 clocks/);
  });

  it("cites the cache table by number and says which of its figures it takes", () => {
    expect(source("xeon-2.8ghz-512k", "l1.size").source).toMatch(/248966.*Table 1-1/);
    expect(source("xeon-2.8ghz-512k", "l1.latency").source).toMatch(/2 clocks integer, 9 floating-point/);
    expect(source("xeon-2.8ghz-512k", "l2.line").source).toMatch(/two adjacent 64-byte lines/);
    expect(source("xeon-2.8ghz-512k", "l2.sector").source).toMatch(/fills one 64-byte sector per miss/);
  });

  it("marks the prefetcher's stride limit as assumed: 256 bytes is Intel's look-ahead distance", () => {
    const s = source("xeon-2.8ghz-512k", "prefetch.maxStride");
    expect(s.calibrated).toBe(true);
    expect(s.source).toMatch(/stay 256 bytes ahead/);
  });
});

describe("interconnect preset sources", () => {
  it("says the Fast Ethernet source page writes milliseconds for its 110-130 latency", () => {
    expect(interconnectPresets.get("fast-ethernet").source).toMatch(/'milliseconds'/);
  });
});
