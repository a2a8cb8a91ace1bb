import { describe, expect, it } from "vitest";
import { Registry, UnknownNameError, editDistance, formatParams, nearestName, type Registrable } from "../../engine/index.js";

describe("Registry", () => {
  const reg = new Registry<Registrable>("machine preset");
  reg.register({ name: "xeon-2.8ghz-512k", summary: "Xeon", params: [] });
  reg.register({ name: "itanium2-madison", summary: "Itanium", params: [] });

  it("returns registered entries and lists names sorted", () => {
    expect(reg.get("itanium2-madison").summary).toBe("Itanium");
    expect(reg.names()).toEqual(["itanium2-madison", "xeon-2.8ghz-512k"]);
  });

  it("suggests the nearest name for a misspelt one, as an input error", () => {
    try {
      reg.get("itanium2-madisson");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UnknownNameError);
      expect((e as UnknownNameError).isInputError).toBe(true);
      expect((e as Error).message).toBe(
        "unknown machine preset 'itanium2-madisson' (did you mean 'itanium2-madison'?); known: itanium2-madison, xeon-2.8ghz-512k",
      );
    }
  });

  it("refuses a second registration under the same name", () => {
    expect(() => reg.register({ name: "itanium2-madison", summary: "", params: [] })).toThrow(/already registered/);
  });

  it("offers no suggestion when nothing is close", () => {
    expect(nearestName("zzzzzz", ["alpha", "beta"])).toBeUndefined();
    // A short name replaced whole is no typo; one letter of two is.
    expect(nearestName("B", ["A", "C"])).toBeUndefined();
    expect(nearestName("xy", ["ab"])).toBeUndefined();
    expect(nearestName("S3", ["S1", "T1"])).toBe("S1");
    expect(nearestName("B", ["AB"])).toBe("AB");
  });

  it("counts two swapped adjacent letters as one edit", () => {
    expect([editDistance("cots", "cost"), editDistance("ab", "ba"), editDistance("ca", "abc"), editDistance("kitten", "sitting")]).toEqual([1, 1, 3, 3]);
    expect(nearestName("cots", ["code", "cost"])).toBe("cost");
  });

  it("formats parameter documentation for help text", () => {
    const text = formatParams([
      { name: "l2.size", type: "quantity", dimension: "bytes", doc: "L2 capacity.", default: 524288 },
      { name: "mode", type: "enum", values: ["a", "b"], doc: "Mode.", optional: true },
    ]);
    expect(text).toBe("  l2.size  <bytes>  L2 capacity. (default 524288)\n  mode     <a|b>  Mode. (optional)");
  });
});
