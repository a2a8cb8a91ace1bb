import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "ccasim-power-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ccasim power on a simulated Itanium 2 run", () => {
  it("names the events whose estimate exceeds MaxPower, and no others", async () => {
    const out = join(dir, "shock-madison");
    expect((await runCli(["run", "scenarios/shock-madison.yaml", "--quiet", "--out", out])).code).toBe(0);
    const r = await runCli(["power", out, "--exclusive", "--json"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { events: { event: string; power: { watts: number; aboveMaxPower: boolean } }[]; aboveMaxPower: string[] };
    const above = json.events.filter((e) => e.power.watts > 122);
    // The halo copies retire about 3 instructions and 0.1 L3 references per cycle: about 129 W.
    expect(above.map((e) => e.event)).toContain("AMRMesh::ghostUpdate()");
    expect(json.aboveMaxPower).toEqual(above.map((e) => `${e.event} (mean)`));
    const table = await runCli(["power", out, "--exclusive"]);
    expect(table.out).toContain(`${above.length} of ${json.events.length} estimates above MaxPower (122 W, the thermal design power)`);
    expect(table.out).toContain("AMRMesh::ghostUpdate() (mean)");
  });
});
