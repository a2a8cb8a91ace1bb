import { describe, expect, it } from "vitest";
import { csvTable, formatCell, jsonTable, textTable } from "../../cli/table-format.js";
import { uniqueColumnNames } from "../../index.js";
import { formatAdjustedR2 } from "../../cli/commands/analysis-io.js";

describe("query result tables", () => {
  it("prints a result of a million rows (the column widths overflowed the call stack from about 200 000)", () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => [i]);
    const text = textTable(["range"], rows);
    expect(text.slice(0, 28)).toBe(" range\n------\n     0\n     1\n");
    expect(text.endsWith("\n999999\n")).toBe(true);
  });

  it("writes every digit of a number to CSV, so the values read back unchanged", () => {
    const csv = csvTable(["a", "b", "c"], [[12345678901.5, 0.123456789012345, 1e-300]]);
    expect(csv).toBe("a,b,c\n12345678901.5,0.123456789012345,1e-300\n");
    const back = csv.split("\n")[1]!.split(",").map(Number);
    expect(back).toEqual([12345678901.5, 0.123456789012345, 1e-300]);
  });

  it("names columns that share a name apart, as DuckDB's export does, so JSON keeps them all", () => {
    expect(uniqueColumnNames(["a", "a", "a_1", "a", "A", "b"])).toEqual(["a", "a_1", "a_1_1", "a_2", "A_3", "b"]);
    expect(JSON.parse(jsonTable(["x", "x"], [[1, 2]]))).toEqual([{ x: 1, x_1: 2 }]);
    expect(csvTable(["x", "x"], [[1, 2]])).toBe("x,x_1\n1,2\n");
  });

  it("writes dates to CSV as bare ISO 8601 text, not as quoted JSON strings", () => {
    const csv = csvTable(["d"], [[new Date("2020-01-01T00:00:00.000Z")]]);
    expect(csv).toBe("d\n2020-01-01T00:00:00.000Z\n");
  });

  it("quotes CSV cells holding commas, quotes or line breaks and leaves NULL empty", () => {
    expect(csvTable(["x", "y", "z"], [["a,b", 'say "hi"', null], ["l1\nl2", [1, 2], { a: 1n }]])).toBe(
      'x,y,z\n"a,b","say ""hi""",\n"l1\nl2","[1,2]","{""a"":""1""}"\n',
    );
  });

  it("rounds numbers to 10 significant digits and shows dates as ISO text in the printed table", () => {
    expect(formatCell(12345678901.5)).toBe("12345678900");
    expect(formatCell(new Date("2020-01-01T00:00:00.000Z"))).toBe("2020-01-01T00:00:00.000Z");
    expect(textTable(["d"], [[new Date("2020-01-01T00:00:00.000Z")]])).toBe("d\n------------------------\n2020-01-01T00:00:00.000Z\n");
  });
});

describe("adjusted R² in fit tables", () => {
  it("keeps 3 significant digits of 1 − adj. R², one decimal count per column", () => {
    expect(formatAdjustedR2([0.8788, 0.5221])).toEqual(["0.8788", "0.5221"]);
    expect(formatAdjustedR2([0.99998123, 0.9999684])).toEqual(["0.9999812", "0.9999684"]);
    expect(formatAdjustedR2([1, 0.9])).toEqual(["1", "0.9"]);
    expect(formatAdjustedR2([NaN, -0.25])).toEqual(["-", "-0.25"]);
  });

  it("prints neighbours that differ differently, up to 12 decimals", () => {
    expect(formatAdjustedR2([0.5000012, 0.5000011])).toEqual(["0.5000012", "0.5000011"]);
    expect(formatAdjustedR2([0.9999999999999, 0.99999999999989])).toEqual(["1", "1"]);
  });
});
