import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** The comment lines of the example scenario files that run `ccasim run` with another flux. */
function fluxSwapLines(): { file: string; line: string }[] {
  const out: { file: string; line: string }[] = [];
  for (const name of readdirSync("scenarios").filter((n) => n.endsWith(".yaml"))) {
    const lines = readFileSync(join("scenarios", name), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!line.startsWith("#") || !line.includes("assembly.connections")) return;
      // The command may start on the line before (a continued shell line).
      out.push({ file: name, line: `${lines[i - 1] ?? ""} ${line}` });
    });
  }
  return out;
}

describe("the example scenarios' comments", () => {
  it("write a run that swaps the flux component to a folder of its own, not over the EFM run's", () => {
    const swaps = fluxSwapLines();
    expect(swaps.map((s) => s.file).sort()).toEqual(["flux.assembly.yaml", "shock-neuronic.yaml"]);
    for (const { file, line } of swaps) expect(line, file).toMatch(/--out out\/shock-godunov/);
  });
});
