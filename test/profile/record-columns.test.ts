import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { RECORD_COLUMNS, RECORD_VALUE_FIELDS, describeRecordValues, recordValueName, recordValueOf } from "../../profile/index.js";

describe("record value names", () => {
  it("resolve a field from its name, its record-file column and its study-database column", () => {
    expect(recordValueOf("wallTime")).toEqual({ field: "wallTime" });
    expect(recordValueOf("wall_time [us]")).toEqual({ field: "wallTime" });
    expect(recordValueOf("wall_time")).toEqual({ field: "wallTime" });
    expect(recordValueOf("compute_time")).toEqual({ field: "computeTime" });
    expect(recordValueOf("mpi_time [us]")).toEqual({ field: "mpiTime" });
    for (const f of RECORD_VALUE_FIELDS) expect(recordValueOf(RECORD_COLUMNS[f]).field).toBe(f);
  });

  it("resolve a counter from its name or its column, with or without the unit", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_:]{0,20}$/), (name) => {
        fc.pre(!(RECORD_VALUE_FIELDS as readonly string[]).includes(name) && !name.startsWith("counter:") && !/_time$/.test(name));
        for (const spelling of [name, `counter:${name}`, `counter:${name} [count]`]) {
          expect(recordValueOf(spelling), spelling).toEqual({ counter: name });
          expect(recordValueName(recordValueOf(spelling))).toBe(name);
        }
      }),
      { seed: 3, numRuns: 200 },
    );
  });

  it("are listed with their columns for error messages", () => {
    expect(describeRecordValues(["PAPI_FP_OPS"])).toBe(
      "wallTime (wall_time [us]), computeTime (compute_time [us]), mpiTime (mpi_time [us]), counters PAPI_FP_OPS (counter:PAPI_FP_OPS [count])",
    );
    expect(describeRecordValues([])).toMatch(/mpiTime \(mpi_time \[us\]\), no counters$/);
  });
});
