import { describe, expect, it } from "vitest";
import { formatTable, formatTableNumber } from "../../cli/commands/analysis-io.js";
import { tableCellText } from "../../analysis/report/html.js";
import { fractionText } from "../../analysis/index.js";

describe("numbers in the analysis tables", () => {
  it("prints an integer with all its digits", () => {
    expect(formatTableNumber(53511)).toBe("53511");
    expect(formatTableNumber(555466000)).toBe("555466000");
    expect(formatTableNumber(0)).toBe("0");
  });

  it("never rounds a fraction to something that reads as an integer", () => {
    expect(formatTableNumber(53511.75)).toBe("53511.8");
    expect(formatTableNumber(1234.96)).toBe("1235.0");
    expect(formatTableNumber(555465999.7)).toBe("555465999.7");
    expect(formatTableNumber(2.5)).toBe("2.5");
    expect(formatTableNumber(3.14159)).toBe("3.142");
    expect(formatTableNumber(0.0123456)).toBe("0.01235");
    expect(formatTableNumber(1.5e-5)).toBe("1.500e-5");
    expect(formatTableNumber(NaN)).toBe("-");
  });

  it("keeps tables aligned with the exact values", () => {
    const t = formatTable(["name", "value"], [["a", 53511.75], ["b", 12]]).split("\n");
    expect(t[2]).toBe("a     53511.8");
    expect(t[3]).toBe("b          12");
  });

  it("reports fractions with a decimal point and integers whole in the HTML report", () => {
    expect(tableCellText(555466000)).toBe("555\u202f466\u202f000");
    expect(tableCellText(555465999.7)).toBe("555\u202f465\u202f999.7");
    expect(tableCellText(53511.75)).toBe("53\u202f511.8");
    expect(tableCellText(3.14159265)).toBe("3.14159");
    expect(tableCellText(0.5)).toBe("0.5");
  });

  it("writes fractions by one rule at the precision each output asks (4 digits in text tables, 6 in reports)", () => {
    for (const [v, text4, text6] of [
      [53511.75, "53511.8", "53511.8"],
      [1234.96, "1235.0", "1234.96"],
      [3.14159265, "3.142", "3.14159"],
      [0.000123456, "1.235e-4", "0.000123456"],
      [0.0000123456, "1.235e-5", "1.23456e-5"],
      [2.5e15 + 0.5, "2.500e15", "2.50000e15"],
      // Rounding up to 1 keeps the point: the value is not an integer.
      [0.99996, "1.0", "0.99996"],
      [0.9999996, "1.0", "1.0"],
    ] as const) {
      expect(fractionText(v, { digits: 4, exponentBelow: 1e-3 })).toBe(text4);
      expect(formatTableNumber(v)).toBe(text4);
      expect(fractionText(v, { digits: 6, exponentBelow: 1e-4 })).toBe(text6);
    }
    expect(tableCellText(0.0000123456)).toBe("1.23456e-5");
  });
});

describe("analysis tables of many rows", () => {
  it("aligns a table of 200 000 rows (power --top, prune --rows), a row without a cell counting as empty", () => {
    const n = 200_000;
    const rows = Array.from({ length: n }, (_, k) => [`event ${k}`, k]);
    const lines = formatTable(["event", "value"], [...rows, ["short"]]).split("\n");
    expect(lines).toHaveLength(n + 3);
    expect(lines[1]).toBe(`${"-".repeat("event 199999".length)}  ${"-".repeat(6)}`);
    expect(lines[n + 1]).toBe(`event 199999  199999`);
    // The row without a value makes the column no number column: left-aligned.
    expect(lines[2]).toBe(`event 0       0`);
    expect(lines[n + 2]).toBe("short");
  });
});
