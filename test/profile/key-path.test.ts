import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPath, parseKeyPath } from "../../profile/key-path.js";

describe("key paths as messages write them", () => {
  it("reads back every path it writes", () => {
    const key = fc.oneof(fc.string(), fc.constantFrom("a.b", "x[1]", '"q"', "(top)", "12", "", "A.go", "\\"));
    const segment = fc.oneof(key, fc.nat({ max: 1000 }));
    fc.assert(fc.property(fc.array(segment, { maxLength: 6 }), (path) => void expect(parseKeyPath(formatPath(path))).toEqual(path)), { numRuns: 2000 });
  });

  it("writes keys bare, indices in brackets and other keys quoted", () => {
    expect(formatPath(["assembly", "components", "A", "type"])).toBe("assembly.components.A.type");
    expect(formatPath(["connections", 2, "from"])).toBe("connections[2].from");
    expect(formatPath(["proxies", "A.go", "params"])).toBe('proxies["A.go"].params');
    expect(parseKeyPath('proxies["A.go"].params')).toEqual(["proxies", "A.go", "params"]);
  });

  it("takes (top) as the document itself", () => {
    expect(parseKeyPath("(top)")).toEqual([]);
    expect(parseKeyPath("(top).extra")).toEqual(["extra"]);
  });
});
