import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../../scenarios/index.js";
import { errorsOf, programScenario } from "./helpers.js";

const load = (main: unknown[]) => errorsOf(() => loadScenarioText(programScenario({ main }), "t.yaml"));

describe("program element keys", () => {
  it("suggests 'to' for a send written with 'from', without a second error for the missing 'to'", () => {
    const errors = load([{ send: "ToLeft", from: "mod(pid + 1, np)", size: 8 }]);
    expect(errors).toEqual([expect.stringContaining("program.main[0].from: unknown key 'from' (did you mean 'to'?)")]);
  });

  it("suggests 'from' for a receive written with 'to'", () => {
    expect(load([{ recv: "FromLeft", to: "mod(pid + 1, np)" }])).toEqual([expect.stringContaining("unknown key 'to' (did you mean 'from'?)")]);
  });

  it("names a key that is no element kind as one, once, with the kinds there are", () => {
    const errors = load([{ gather: "G", size: 8 }]);
    expect(errors).toEqual([expect.stringMatching(/program\.main\[0\]\.gather: unknown key 'gather': an element needs a key that names its kind \(action, activity, if, .*allreduce\)$/)]);
    expect(load([{ acton: "A", cost: 1 }])).toEqual([expect.stringContaining("program.main[0].acton: unknown key 'acton' (did you mean 'action'?): an element needs a key that names its kind")]);
    // A code element has its kind: a stray key beside it is only unknown.
    const stray = load([{ code: "x = 1", note: "set x" }]);
    expect(stray).toEqual([expect.stringContaining("program.main[0].note: unknown key 'note'")]);
    expect(stray.join("\n")).not.toContain("needs a key that names its kind");
  });

  it("gives a missing destination examples of a process, not of a cost", () => {
    const [error] = load([{ send: "S", size: 8 }]);
    expect(error).toContain("missing required key 'to' (an expression such as mod(pid + 1, np) or pid - 1)");
    expect(error).not.toContain("exp(1.19");
  });

  it("keeps cost examples for a cost", () => {
    expect(load([{ action: "A", cost: "2*" }]).join("\n")).not.toContain("mod(pid");
  });
});
