import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("refuses a decimal unit on a cache size, which would give 500 sets, naming the binary unit; bytes as a number stay as written", async () => {
    for (const [value, unit, binary, what] of [["512KB", "KB", "512KiB", "is 1000 bytes"], ["0.5MB", "MB", "0.5MiB", "is 1000000 bytes"]]) {
      const r = await validate("scenarios/kernel-l2.yaml", "--set", `machine.l2.size=${value}`);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`machine.l2.size: expected a size such as 512KiB or 64B, got "${value}" (${unit} ${what}, and this size counts in powers of two: write ${binary}) (from --set machine.l2.size=${value})`);
    }
    // Bits are asked about, not converted: 512 kb is 64 KB.
    expect((await validate("scenarios/kernel-l2.yaml", "--set", "machine.l2.size=512kb")).stderr).toContain('got "512kb" (kb means bits: did you mean 512KiB? (this size counts bytes, in powers of two))');
    expect((await validate("scenarios/kernel-l2.yaml", "--set", "machine.tlb.pageSize=4KB")).stderr).toContain("write 4KiB");
    for (const ok of ["512KiB", "524288", "512000"]) expect((await validate("scenarios/kernel-l2.yaml", "--set", `machine.l2.size=${ok}`)).code).toBe(0);
    // Elsewhere a decimal size means what it says.
    expect(parseQuantity("512KB", "bytes")).toBe(512_000);
  });

  it("warns of a cache level smaller than the level inside it, and accepts the machine", async () => {
    const small = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l2.size=4KiB");
    expect(small.code).toBe(0);
    expect(small.stderr).toMatch(/^warning: scenarios\/kernel-l2\.yaml:\d+:\d+: machine\.l2\.size: 4096 bytes, smaller than machine\.l1\.size \(8192 bytes\): a level outside another that holds less than it misses wherever l1 misses and keeps nothing l1 does not \(is the size in the right unit\?\) \(from --set machine\.l2\.size=4KiB\)\n/);
    // Written in the file, the warning is at its line, with no override to name.
    const dir = mkdtempSync(join(tmpdir(), "ccasim-small-l2-"));
    const file = join(dir, "small-l2.yaml");
    writeFileSync(file, readFileSync("scenarios/kernel-l2.yaml", "utf8").replace("  preset: xeon-2.8ghz-512k\n", "  preset: xeon-2.8ghz-512k\n  l2: { size: 4KiB }\n"));
    const inFile = await validate(file);
    expect(inFile.code).toBe(0);
    expect(inFile.stderr).toMatch(new RegExp(`^warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:19:\\d+: machine\\.l2\\.size: 4096 bytes, smaller than machine\\.l1\\.size \\(8192 bytes\\): .*\\(is the size in the right unit\\?\\)\n$`));
    // As large as the level inside it, or any preset as it is: nothing to say.
    for (const args of [["--set", "machine.l2.size=8KiB"], []]) expect((await validate("scenarios/kernel-l2.yaml", ...args)).stderr).toBe("");
    expect((await validate("scenarios/shock-madison.yaml")).stderr).toBe("");
  });

  it("says a metric counts a cache level the machine lacks, rather than suggesting another level's", async () => {
    const r = await validate("scenarios/shock-madison.yaml", "--set", "machine.l3=null", "--set", "metrics=[TIME, L3_MISSES]");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("metrics[1]: metric 'L3_MISSES' counts the L3 cache, which the machine does not have (its levels: l1, l2): leave the metric out, or give the machine an l3");
    expect(r.stderr).not.toContain("did you mean");
    // Named only where the level would make the metric available: a PAPI preset on the Xeon,
    // not a native event of a machine that counts presets, nor a level no counter counts.
    expect((await validate("scenarios/known-models.yaml", "--set", "metrics=[TIME, PAPI_L3_TCM]")).stderr).toContain("metric 'PAPI_L3_TCM' counts the L3 cache, which the machine does not have (its levels: l1, l2)");
    expect((await validate("scenarios/known-models.yaml", "--set", "metrics=[TIME, L3_MISSES]")).stderr).toContain(
      "metric 'L3_MISSES' is an Itanium 2 native event, and the xeon-2.8ghz-512k node counts PAPI presets only (machine.counters.native: none)",
    );
    expect((await validate("scenarios/known-models.yaml", "--set", "metrics=[TIME, PAPI_L4_TCM]")).stderr).toContain("unknown metric 'PAPI_L4_TCM'");
  });

  it("says how to write a cache level given as its size alone, and what a group holds", async () => {
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.l2=512KiB")).stderr).toContain('machine.l2: expected an object of parameters, got "512KiB": write l2: { size: 512KiB }');
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.tlb=64")).stderr).toContain("machine.tlb: expected an object of parameters, got 64: a map of entries, pageSize, missPenalty");
  });

  it("names the --set that created an unknown key inside the machine", async () => {
    const r = await validate("scenarios/known-models.yaml", "--set", "machine.L2.size=256KiB");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("machine.L2: unknown key (did you mean 'l2'?); known: ");
    expect(r.stderr).toContain("(from --set machine.L2.size=256KiB)");
  });

  it("refuses a key set inside a component the assembly lacks, with the component it likely meant; a whole component may be added", async () => {
    const r = await validate("scenarios/known-models.yaml", "--set", "assembly.components.Drivr.params.iterations=3");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "ccasim validate: scenarios/known-models.yaml: 1 error\n  scenarios/known-models.yaml:38:3: assembly.components.Drivr: 'Drivr' is not a component of the assembly (did you mean 'Driver'?): an override of one of its keys changes a component, it does not add one (to add one, set assembly.components.Drivr to the whole component; components: Driver, A, B, C, D) (from --set assembly.components.Drivr.params.iterations=3)\n",
    );
    const added = await validate("scenarios/known-models.yaml", "--set", "assembly.components.E={type: dummy}", "--set", "assembly.components.E.params.cost=2");
    expect(added.code).toBe(0);
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

  it("blames a line or an associativity set against the preset's sector or size on the key set, naming the preset's value", async () => {
    const line = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l2.line=32B");
    expect(line.code).toBe(2);
    expect(line.stderr).toContain(
      "machine.l2.line: conflicts with l2.sector = 64 (the preset's, not set here), which must be a power of two (bytes) dividing l2.line = 32 (from --set machine.l2.line=32B)",
    );
    expect(line.stderr).not.toContain("machine.l2.sector:");
    const assoc = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l2.assoc=3");
    expect(assoc.code).toBe(2);
    expect(assoc.stderr).toContain(
      "machine.l2.assoc: conflicts with l2.size = 524288 (the preset's, not set here), which must be a multiple of l2.line x l2.assoc = 384 bytes (from --set machine.l2.assoc=3)",
    );
    expect(assoc.stderr).not.toContain("machine.l2.size:");
    // Both keys set: the rule's own key is blamed, as before.
    expect((await validate("scenarios/kernel-l2.yaml", "--set", "machine.l2.assoc=3", "--set", "machine.l2.size=512KiB")).stderr).toContain(
      "machine.l2.size: expected a multiple of l2.line x l2.assoc = 384 bytes, got 524288 (from --set machine.l2.size=512KiB)",
    );
  });

  it("refuses an integer-only l1 with no level after it, blaming the key set: the levels removed, or the flag", async () => {
    const removed = await validate("scenarios/shock-madison.yaml", "--set", "machine.l2=null", "--set", "machine.l3=null");
    expect(removed.code).toBe(2);
    expect(removed.stderr).toContain("machine.l2: conflicts with l1.integerOnly = true (the preset's, not set here), which must be false on a machine whose only cache level is l1 (from --set machine.l2=null)");
    const flagged = await validate("scenarios/kernel-l2.yaml", "--set", "machine.l2=null", "--set", "machine.l1.integerOnly=true");
    expect(flagged.stderr).toContain("machine.l1.integerOnly: an integer-only l1 needs a level after it, which serves the floating-point loads and stores (the machine has l1 alone) (from --set machine.l1.integerOnly=true)");
    // With the flag off, or a level after it, the machine is valid.
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.l2=null", "--set", "machine.l1.integerOnly=false")).code).toBe(0);
    expect((await validate("scenarios/known-models.yaml", "--set", "machine.l1.integerOnly=true")).code).toBe(0);
  });

  it("lists every node parameter out of type or range in one pass, each at its key, and judges a level's geometry by the keys that passed", async () => {
    const r = await validate(
      "scenarios/kernel-l2.yaml",
      "--set", "machine.l2.assoc=0",
      "--set", "machine.l2.line=100B",
      "--set", "machine.tlb.entries=64.5",
      "--set", "machine.prefetch.enabled=yes",
      "--set", "machine.counters.native=itanium",
      "--set", "machine.missModel=lru",
      "--set", "machine.tlb.pageSize=3KiB",
      "--set", "machine.l1.size=5000",
    );
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toBe("ccasim validate: scenarios/kernel-l2.yaml: 8 errors");
    const keys = lines.slice(1).map((l) => /: (machine\.[\w.]+): /.exec(l)?.[1]);
    expect(keys).toEqual(["machine.l2.assoc", "machine.tlb.entries", "machine.prefetch.enabled", "machine.counters.native", "machine.missModel", "machine.l1.size", "machine.l2.line", "machine.tlb.pageSize"]);
    expect(r.stderr).toContain("machine.l1.size: expected a multiple of l1.line x l1.assoc = 256 bytes, got 5000 (from --set machine.l1.size=5000)");
    expect(r.stderr).toContain("machine.l2.line: expected a power of two (bytes), got 100 (from --set machine.l2.line=100B)");
    // l2.size is the preset's and fits any line: not judged against the bad assoc.
    expect(r.stderr).not.toContain("machine.l2.size");
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
