import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { exponentialC, fixedC } from "../../profile/c-format.js";
import { gFormat } from "../../profile/table.js";
import { TAU } from "./data.js";

async function show(...argv: string[]): Promise<string[]> {
  let out = "";
  const code = await main(["profile", "show", ...argv, "--no-user-events"], { out: (s) => (out += s), err: () => {} });
  expect(code).toBe(0);
  return out.split("\n");
}

describe("pprof's printf rounding", () => {
  it("rounds an exact tie to the even digit, as C's printf does, and other values as toFixed", () => {
    expect([150.5, 151.5, 2.5, 0.5, -2.5, 1.5].map((x) => fixedC(x, 0))).toEqual(["150", "152", "2", "0", "-2", "2"]);
    // 6.25 is a tie at one decimal; 0.15 is not (its double is below 0.15) and 1.45 neither.
    expect([6.25, 6.75, 0.15, 1.45, 150.51].map((x) => fixedC(x, 1))).toEqual(["6.2", "6.8", "0.1", "1.4", "150.5"]);
    expect([12345, 12355, 99995, 12346].map((x) => exponentialC(x, 3))).toEqual(["1.234e+4", "1.236e+4", "1.000e+5", "1.235e+4"]);
    // %.6G and %.4G as pprof prints calls and counts.
    expect([gFormat(1565.625, 6), gFormat(12345, 4), gFormat(10005, 4), gFormat(1e21 + 0, 4)]).toEqual(["1565.62", "1.234E+04", "1E+04", "1E+21"]);
  });

  it("prints per-call means and mean calls that fall on a tie as pprof does", async () => {
    // Mean of MPI_Reduce() over 4 ranks: 150.5 usec per call; pprof prints 150.
    expect(await show(join(TAU, "hatchet-cpi-mpi"))).toContain("  0.3         0.15         0.15           1           0        150 MPI_Reduce()");
    // 32 ranks call MPI_Comm_size() 50100 times: a mean of 1565.625 calls, pprof's %G gives 1565.62.
    expect(await show(join(TAU, "powercap", "cap50_wrapped_am8"))).toContain("  0.0        0.677        0.677     1565.62           0          0 MPI_Comm_size()");
  });
});
