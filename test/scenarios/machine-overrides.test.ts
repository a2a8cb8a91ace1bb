import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { parseQuantity } from "../../scenarios/lang/index.js";

async function validate(...argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await main(["validate", ...argv], { out: () => undefined, err: (s) => (stderr += s) });
  return { code, stderr };
}

describe("machine overrides", () => {
  it("says which keys a level the preset lacks needs, blaming the --set that adds it", async () => {
    const r = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l3.size=2MiB");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("machine.l3.size: l3 is a new level (the machine has none): a new level needs size, line, assoc, latency (missing: line, assoc, latency)");
    expect(r.stderr).toContain("(from --set machine.l3.size=2MiB)");
  });

  it("accepts a new level given in full", async () => {
    const r = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l3.size=2MiB", "--set", "machine.l3.line=128B", "--set", "machine.l3.assoc=8", "--set", "machine.l3.latency=14");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("blames a line smaller than the level above's on the line set, not on the defaulted sector", async () => {
    const r = await validate("scenarios/shock-madison.yaml", "--set", "machine.l3.line=64B");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("machine.l3.line: expected at least the line of the level above, l2.line = 128 bytes: a fill must cover the missing line (l3.sector defaults to l3.line), got 64 (from --set machine.l3.line=64B)");
    expect(r.stderr).not.toContain("machine.l3.sector");
  });

  it("blames a line set above a level whose preset sector it outgrows on that line, naming the sector it conflicts with", async () => {
    const r = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l1.line=128B");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "machine.l1.line: conflicts with l2.sector = 64 (the preset's, not set here), which must be at least the line of the level above, l1.line = 128 bytes: a fill must cover the missing line (from --set machine.l1.line=128B)",
    );
  });

  it("still blames a sector given explicitly", async () => {
    const r = await validate("scenarios/shock-madison.yaml", "--set", "machine.l3.sector=64B");
    expect(r.stderr).toContain("machine.l3.sector: expected at least the line of the level above, l2.line = 128 bytes");
  });

  it.each([
    ["machine.clock=1.5", "for example 1.5GHz"],
    ["machine.clock=2800", "for example 2800MHz"],
    ["machine.memory.latency=150", "for example 150ns"],
    ["machine.memory.bandwidth=6.4", "for example 6.4GB/s"],
    ["machine.noise.osRate=1024", "for example 1024Hz"],
    ["machine.noise.osCost=3", "for example 3us"],
    ["machine.network.params.bandwidth=900", "for example 900MB/s"],
    ["machine.network.params.alpha=5", "for example 5us"],
  ])("suggests the unit plausible for the magnitude of --set %s", async (set, hint) => {
    const r = await validate("scenarios/shock-madison.yaml", "--set", set);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`a number without unit is ambiguous: add one, ${hint}`);
  });

  it("suggests units by a typical value of each dimension when no preset value is known", () => {
    const hint = (v: number, d: "time" | "frequency" | "bandwidth" | "power", typical?: number) => {
      try {
        parseQuantity(v, d, undefined, { typical });
      } catch (e) {
        return /for example (\S+)\)/.exec((e as Error).message)![1];
      }
      throw new Error("accepted");
    };
    expect(hint(2.8, "frequency")).toBe("2.8GHz");
    expect(hint(700, "frequency")).toBe("700MHz");
    expect(hint(30, "time")).toBe("30us");
    expect(hint(100, "bandwidth")).toBe("100MB/s");
    expect(hint(122, "power")).toBe("122W");
    expect(hint(100, "frequency", 1024)).toBe("100Hz");
  });
});
