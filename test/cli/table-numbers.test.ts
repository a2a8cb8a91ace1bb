import { describe, expect, it } from "vitest";
import { formatTable, formatTableNumber } from "../../cli/commands/analysis-io.js";
import { tableCellText } from "../../analysis/report/html.js";

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
});
