import { describe, expect, it } from "vitest";
import { MeasuredTableError, parseMeasuredCsv, parseMeasuredYaml } from "../../../scenarios/program/index.js";

describe("measured-times tables", () => {
  it("reads CSV rows into overrides and times with units", () => {
    const rows = parseMeasuredCsv("# comment\nname,workload.NAT,machine.nodes,measured,reference\nA,32,1,264s,280s\nB,64,2,1.5ms,\n");
    expect(rows).toEqual([
      { name: "A", set: ["workload.NAT=32", "machine.nodes=1"], sources: ["measured.csv:3, column 2 'workload.NAT'", "measured.csv:3, column 3 'machine.nodes'"], measured: 264e6, reference: 280e6, calibrated: false },
      { name: "B", set: ["workload.NAT=64", "machine.nodes=2"], sources: ["measured.csv:4, column 2 'workload.NAT'", "measured.csv:4, column 3 'machine.nodes'"], measured: 1500, reference: undefined, calibrated: false },
    ]);
  });

  it("reads quoted cells as spreadsheets write them, and refuses a table without rows as the YAML form does", () => {
    const rows = parseMeasuredCsv('"name","workload.NAT","measured"\n"N1P4, first ""run""",32,"264s"\n', "q.csv");
    expect(rows).toEqual([{ name: 'N1P4, first "run"', set: ["workload.NAT=32"], sources: ["q.csv:2, column 2 'workload.NAT'"], measured: 264e6, reference: undefined, calibrated: false }]);
    expect(() => parseMeasuredCsv('name,measured\n"A,1s\n', "q.csv")).toThrow(new MeasuredTableError("q.csv", 2, "unterminated quoted cell in column 1"));
    expect(() => parseMeasuredCsv('name,measured\n"A"x,1s\n', "q.csv")).toThrow(new MeasuredTableError("q.csv", 2, "text after the closing quote of column 1"));
    expect(() => parseMeasuredCsv("# only a header\nname,workload.NAT,measured\n", "e.csv")).toThrow(new MeasuredTableError("e.csv", 2, "the table has a header but no configurations: add a row per configuration"));
  });

  it("takes a cost function's key as a CSV column, as --set does", () => {
    const rows = parseMeasuredCsv('name,program.functions.F(n),"program.functions.Stencil(a, b)",measured\nA,3 * n,"a * b",1s\n', "f.csv");
    expect(rows.map((r) => r.set)).toEqual([["program.functions.F(n)=3 * n", "program.functions.Stencil(a, b)=a * b"]]);
    expect(() => parseMeasuredCsv("name,measure,measured\nA,1,1s\n", "f.csv")).toThrow(/column 2 'measure' is neither name, measured/);
  });

  it("reads the YAML form", () => {
    const rows = parseMeasuredYaml("configurations:\n  - name: N1P4\n    set: { workload.NAT: 32 }\n    measured: 264s\n");
    expect(rows).toEqual([{ name: "N1P4", set: ["workload.NAT=32"], sources: ['measured.yaml:3, configurations[0].set["workload.NAT"]'], measured: 264e6, reference: undefined, calibrated: false }]);
  });

  it("names the line of a bad row and rejects tables without a measured column", () => {
    expect(() => parseMeasuredCsv("name,measured\nA,fast\n", "t.csv")).toThrow(MeasuredTableError);
    expect(() => parseMeasuredCsv("name,measured\nA,fast\n", "t.csv")).toThrow(new MeasuredTableError("t.csv", 2, 'measured: expected a duration such as 30us or 1.5ms, got "fast" (not a number with a unit)'));
    expect(() => parseMeasuredCsv("name,workload.NAT\nA,3\n", "t.csv")).toThrow(/no 'measured' column/);
    expect(() => parseMeasuredCsv("name,NAT,measured\nA,3,1s\n", "t.csv")).toThrow(/column 2 'NAT' is neither/);
    expect(() => parseMeasuredCsv("name,measured\nA,1s,3\n", "t.csv")).toThrow(/t\.csv:2: 3 cells for 2 columns/);
  });

  it("suggests for a time without unit the unit that puts it near the table's other times, else near a minute-long run", () => {
    const bare = (text: string, file = "u.csv") => {
      try {
        (file.endsWith(".yaml") ? parseMeasuredYaml : parseMeasuredCsv)(text, file);
      } catch (e) {
        return /for example (\S+)\)$/.exec((e as Error).message)?.[1];
      }
      return undefined;
    };
    // The paper's table of runs of minutes, one cell without its unit.
    expect(bare("name,measured,reference\nA,264,280s\nB,166s,170s\n")).toBe("264s");
    expect(bare("name,measured\nA,264\n")).toBe("264s");
    expect(bare("name,measured\nA,1.5ms\nB,2\n")).toBe("2ms");
    expect(bare("name,measured\nA,40us\nB,35\n")).toBe("35us");
    expect(bare("configurations:\n  - { name: a, measured: 2.5min }\n  - { name: b, measured: 264 }\n", "u.yaml")).toBe("264s");
  });

  it("reads which rows the model was calibrated on, in both forms", () => {
    const rows = parseMeasuredCsv("name,measured,calibrated\nA,1s,yes\nB,2s,\nC,3s,no\nD,4s,TRUE\n", "c.csv");
    expect(rows.map((r) => r.calibrated)).toEqual([true, false, false, true]);
    expect(() => parseMeasuredCsv("name,measured,calibrated\nA,1s,maybe\n", "c.csv")).toThrow(new MeasuredTableError("c.csv", 2, 'calibrated: expected yes or no (true/false, 1/0), got "maybe"'));
    const yaml = parseMeasuredYaml("configurations:\n  - { name: A, measured: 1s, calibrated: true }\n  - { name: B, measured: 2s }\n");
    expect(yaml.map((r) => r.calibrated)).toEqual([true, false]);
    expect(() => parseMeasuredYaml("configurations:\n  - name: A\n    measured: 1s\n    calibrated: often\n", "c.yaml")).toThrow(/^c\.yaml:4: configurations\[0\]\.calibrated: expected yes or no/);
  });

  it("names the line of a bad measured or reference time of a YAML entry", () => {
    expect(() => parseMeasuredYaml("configurations:\n  - name: A\n    set: { workload.N: 1 }\n    measured: 150\n", "m.yaml")).toThrow(/^m\.yaml:4: configurations\[0\]\.measured: expected a duration/);
    expect(() => parseMeasuredYaml("configurations:\n  - name: A\n    measured: 1s\n    reference: -2s\n", "m.yaml")).toThrow(/^m\.yaml:4: configurations\[0\]\.reference: /);
  });

  it("refuses a column named twice in the header, naming both columns", () => {
    expect(() => parseMeasuredCsv("name,workload.NAT,workload.NAT,measured\nA,32,64,264s\n", "d.csv")).toThrow(new MeasuredTableError("d.csv", 1, "column 3 'workload.NAT' repeats column 2: name each column once"));
    expect(() => parseMeasuredCsv("name,measured,measured\nA,1s,2s\n", "d.csv")).toThrow(new MeasuredTableError("d.csv", 1, "column 3 'measured' repeats column 2: name each column once"));
    expect(() => parseMeasuredCsv("name,name,measured\nA,B,1s\n", "d.csv")).toThrow(new MeasuredTableError("d.csv", 1, "column 2 'name' repeats column 1: name each column once"));
  });

  it("refuses two configurations of one name, naming both lines", () => {
    expect(() => parseMeasuredCsv("name,measured\na,1s\nb,2s\na,3s\n", "d.csv")).toThrow(new MeasuredTableError("d.csv", 4, "configuration name 'a' is used twice (first at line 2): give each configuration its own name"));
    expect(() => parseMeasuredYaml("configurations:\n  - { name: a, measured: 1s }\n  - { name: a, measured: 2s }\n", "d.yaml")).toThrow(/^d\.yaml:3: configuration name 'a' is used twice \(first at line 2\)/);
  });

  it("rejects an unknown key of a YAML entry at its line, naming the nearest", () => {
    const text = "configurations:\n  - name: N1P4\n    sett: { workload.NAT: 32 }\n    measured: 264s\n";
    expect(() => parseMeasuredYaml(text, "t.yaml")).toThrow(MeasuredTableError);
    expect(() => parseMeasuredYaml(text, "t.yaml")).toThrow("t.yaml:3: configurations[0]: unknown key 'sett' (did you mean 'set'?); an entry has name, set, measured, reference, calibrated");
    expect(() => parseMeasuredYaml("configurations:\n  - set: [workload.NAT=32]\n    measured: 1s\n", "t.yaml")).toThrow(/^t\.yaml:2: configurations\[0\]\.set: expected a map/);
    expect(() => parseMeasuredYaml("configurations: [\n", "t.yaml")).toThrow(/^t\.yaml:\d+: cannot parse/);
  });

  it("names a misspelt key of a YAML entry or of the file before asking for the key it replaces", () => {
    expect(() => parseMeasuredYaml("configurations:\n  - name: A\n    measurd: 264s\n", "t.yaml")).toThrow(
      new MeasuredTableError("t.yaml", 3, "configurations[0]: unknown key 'measurd' (did you mean 'measured'?); an entry has name, set, measured, reference, calibrated"),
    );
    expect(() => parseMeasuredYaml("configurations:\n  - { name: A }\n", "t.yaml")).toThrow(new MeasuredTableError("t.yaml", 2, "configurations[0]: expected a map with 'measured'"));
    expect(() => parseMeasuredYaml("# times\nconfiguration:\n  - { name: A, measured: 1s }\n", "t.yaml")).toThrow(
      new MeasuredTableError("t.yaml", 2, "unknown key 'configuration' (did you mean 'configurations'?); the file has one key, configurations"),
    );
  });
});
