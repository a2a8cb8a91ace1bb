import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTauProfiles, ProfileFormatError, readTauProfile } from "../../index.js";

const one = (text: string, path = "dir/profile.0.0.0") => parseTauProfiles([{ files: [{ path, text }] }], { source: "dir" });

function formatError(text: string): ProfileFormatError {
  try {
    one(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileFormatError);
    return e as ProfileFormatError;
  }
  throw new Error("expected a ProfileFormatError");
}

describe("TAU text profile grammar", () => {
  it("accepts quotes inside timer names, as ParaProf does", () => {
    const t = one(`2 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls
"say "hello" world" 2 0 5 5 0 GROUP="TAU_USER"
"a"b" 1 0 1 1 0 GROUP="TAU_USER"
0 aggregates
`);
    expect(t.timers.map((x) => x.name)).toEqual(['say "hello" world', 'a"b']);
    expect(t.calls(0, 0)).toBe(2);
  });

  it("reads fractional and exponent values and ignores a SumExclSqr column", () => {
    const t = one(`1 templated_functions_MULTI_PAPI_FP_INS
# Name Calls Subrs Excl Incl SumExclSqr ProfileCalls
"f" 3 1 1.5E+10 3.71E+16 2.25E+20 0 GROUP="TAU_USER"
0 aggregates
1 userevents
# eventname numevents max min mean sumsqr
"e" 2 1e3 -5 497.5 1000025
`);
    expect(t.metrics).toEqual(["PAPI_FP_INS"]);
    expect(t.exclusive(0, 0, 0)).toBe(1.5e10);
    expect(t.inclusive(0, 0, 0)).toBe(3.71e16);
    const s = t.eventSlot(0, 0);
    expect([t.events.count[s], t.events.max[s], t.events.min[s], t.events.mean[s]]).toEqual([2, 1000, -5, 497.5]);
  });

  it("reads legacy headers: no metric suffix and no metadata gives TIME; hw_counters gives 'Hardware Counter'", () => {
    expect(one(`1 templated_functions\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 1 1 0 GROUP="X"\n0 aggregates\n`).metrics).toEqual(["TIME"]);
    expect(one(`1 templated_functions_hw_counters\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 1 1 0\n0 aggregates\n`).metrics).toEqual(["Hardware Counter"]);
  });

  it("prefers the Metric Name metadata over line 1 and the folder", () => {
    const text = `1 templated_functions_MULTI_WRONG\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>PAPI_L2_TCM</value></attribute><attribute><name>Note</name><value>a &lt;b&gt; &amp; &quot;c&quot;&#xa;d</value></attribute></metadata>\n"f" 1 0 1 1 0 GROUP="X"\n0 aggregates\n`;
    const t = parseTauProfiles([{ folder: "MULTI__ALSO_WRONG", files: [{ path: "profile.0.0.0", text }] }]);
    expect(t.metrics).toEqual(["PAPI_L2_TCM"]);
    expect(t.metadataString("Note")).toBe('a <b> & "c"\nd');
    expect(t.metadataString("Metric Name")).toBeUndefined();
  });

  it("treats names that differ only in spacing as one timer, and adds duplicate lines as ParaProf does", () => {
    const t = one(`3 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls
"MPI_Init()  " 1 0 10 10 0 GROUP="MPI"
"MPI_Init()" 2 0 5 5 0 GROUP="MPI"
"main  =>   MPI_Init()  " 3 0 15 15 0 GROUP="TAU_CALLPATH|MPI"
0 aggregates
`);
    expect(t.timers.map((x) => x.name)).toEqual(["MPI_Init()", "main => MPI_Init()"]);
    expect(t.calls(0, 0)).toBe(3);
    expect(t.inclusive(0, 0, 0)).toBe(15);
  });

  it("accepts CRLF line ends and trailing blank lines", () => {
    const t = one(`1 templated_functions_MULTI_TIME\r\n# Name Calls Subrs Excl Incl ProfileCalls\r\n"f" 1 0 1 2 0 GROUP="X"\r\n0 aggregates\r\n\r\n\r\n`);
    expect(t.inclusive(0, 0, 0)).toBe(2);
  });

  it("names file and line for a truncated timer block", () => {
    const e = formatError(`3 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 1 1 0 GROUP="X"\n`);
    expect(e.file).toBe("dir/profile.0.0.0");
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/found 1 of 3 timer lines/);
  });

  it("names the line of a non-numeric value and of a missing aggregates line", () => {
    const e = formatError(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 x 1 0 GROUP="X"\n0 aggregates\n`);
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/Calls Subrs Excl Incl/);
    const f = formatError(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 1 1 0 GROUP="X"\n"g" 1 0 1 1 0 GROUP="X"\n`);
    expect(f.line).toBe(4);
    expect(f.message).toMatch(/aggregates/);
  });

  it("rejects values too large for a double instead of returning Infinity", () => {
    const e = formatError(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 1e999 1 0 GROUP="X"\n0 aggregates\n`);
    expect(e.line).toBe(3);
  });

  it("rejects a truncated user-event block and a wrong first line", () => {
    const e = formatError(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 1 1 0 GROUP="X"\n0 aggregates\n2 userevents\n# eventname numevents max min mean sumsqr\n"e" 1 1 1 1 1\n`);
    expect(e.message).toMatch(/found 1 of 2 user event lines/);
    expect(formatError(`hello\n`).line).toBe(1);
  });

  it("refuses a negative count of calls or subroutine calls, naming the line (counts cannot be negative)", () => {
    const e = formatError(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" -1 0 3 5 0 GROUP="X"\n0 aggregates\n`);
    expect(e.file).toBe("dir/profile.0.0.0");
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/calls -1/);
    const f = formatError(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 -2 3 5 0 GROUP="X"\n0 aggregates\n`);
    expect(f.line).toBe(3);
    expect(f.message).toMatch(/subroutine calls -2/);
  });

  it("keeps negative values and warns about them", () => {
    const t = one(`1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" 1 0 -3 1 0 GROUP="X"\n0 aggregates\n`);
    expect(t.exclusive(0, 0, 0)).toBe(-3);
    expect(t.warnings.map((w) => w.kind)).toContain("negative-value");
  });

  it("warns of an inclusive value below the exclusive one or negative, naming file and line, and keeps the values", () => {
    const text = (lines: string) => `4 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"main" 1 2 100 1000 0 GROUP="X"\n${lines}0 aggregates\n`;
    const t = one(text(`"foo" 1 0 500 300 0 GROUP="X"\n"bar" 1 0 50 -20 0 GROUP="X"\n"baz" 1 0 100.4 100 0 GROUP="X"\n`));
    expect(t.inclusive(0, 0, t.findTimer("foo")!.index)).toBe(300);
    expect(t.warnings.map((w) => [w.kind, w.message])).toEqual([
      ["negative-value", "dir/profile.0.0.0:5: timer 'bar' (TIME) has inclusive -20 (kept as read)"],
      ["exclusive-exceeds-inclusive", "dir/profile.0.0.0:4: timer 'foo' (TIME): inclusive 300 is below exclusive 500 (kept as read)"],
      ["exclusive-exceeds-inclusive", "dir/profile.0.0.0:5: timer 'bar' (TIME): inclusive -20 is below exclusive 50 (kept as read)"],
    ]);
    // Below by less than TAU's rounding of a written value (baz, 100.4 > 100): no warning.
    expect(t.warnings.some((w) => w.message.includes("baz"))).toBe(false);
    // Other threads with the same fault are counted in the first one's warning.
    const bad = text(`"foo" 1 0 500 300 0 GROUP="X"\n"x" 1 0 1 1 0 GROUP="X"\n"y" 1 0 1 1 0 GROUP="X"\n`);
    const two = parseTauProfiles([{ files: [{ path: "d/profile.0.0.0", text: bad }, { path: "d/profile.1.0.0", text: bad }, { path: "d/profile.2.0.0", text: bad }] }]);
    expect(two.warnings.map((w) => w.message)).toEqual(["d/profile.0.0.0:4: timer 'foo' (TIME): inclusive 300 is below exclusive 500 (kept as read) (and on the same timer in 2 other files)"]);
  });

  it("takes calls and user events from the first metric's files", () => {
    const f = (metric: string, calls: number, incl: number) => ({
      folder: `MULTI__${metric}`,
      files: [{ path: `MULTI__${metric}/profile.1.0.0`, text: `1 templated_functions_MULTI_${metric}\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" ${calls} 0 ${incl} ${incl} 0 GROUP="X"\n0 aggregates\n1 userevents\n# eventname numevents max min mean sumsqr\n"e" ${calls} 1 1 1 1\n` }],
    });
    const t = parseTauProfiles([f("A", 4, 10), f("B", 9, 20)]);
    expect(t.metrics).toEqual(["A", "B"]);
    expect(t.threads).toEqual([{ node: 1, context: 0, thread: 0 }]);
    expect(t.calls(0, 0)).toBe(4);
    expect(t.inclusive(1, 0, 0)).toBe(20);
    expect(t.events.count[0]).toBe(4);
  });
});

describe("TAU metadata block", () => {
  it("reads context and nested metadata and refuses hostile nesting with a typed error", async () => {
    const { parseMetadataXml } = await import("../../index.js");
    expect(
      parseMetadataXml(
        "<metadata><attribute><name>a</name><timer_context>main</timer_context><call_number>1</call_number><timestamp>5</timestamp><value><![CDATA[x<y]]></value></attribute><attribute><name>o</name><value><attribute><name>i</name><value>1</value></attribute></value></attribute></metadata>",
      ),
    ).toEqual([
      ["main : a", "x<y"],
      ["o:i", "1"],
    ]);
    const deep = "<attribute><name>n</name><value>".repeat(5000) + "x" + "</value></attribute>".repeat(5000);
    expect(parseMetadataXml(deep)).toMatch(/nested deeper/);
    const text = `1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata>${deep}</metadata>\n"f" 1 0 1 1 0 GROUP="X"\n0 aggregates\n`;
    expect(() => one(text)).toThrow(ProfileFormatError);
  });

  it("takes markup inside a CDATA section as text", async () => {
    const { parseMetadataXml } = await import("../../index.js");
    // TAU writes a name or value holding '<' or '&' in a CDATA section (Tau_XML_writeString).
    expect(
      parseMetadataXml(
        "<metadata><attribute><name>Command Line</name><value><![CDATA[./a.out '<value>' & more]]></value></attribute><attribute><name><![CDATA[odd</name> <attribute>]]></name><value>v &amp; w</value></attribute><attribute><name>k</name><value>x</value></attribute></metadata>",
      ),
    ).toEqual([
      ["Command Line", "./a.out '<value>' & more"],
      ["odd</name> <attribute>", "v & w"],
      ["k", "x"],
    ]);
  });
});

describe("multi-metric consistency", () => {
  const file = (metric: string, node: number, calls: number) => ({
    path: `MULTI__${metric}/profile.${node}.0.0`,
    text: `1 templated_functions_MULTI_${metric}\n# Name Calls Subrs Excl Incl ProfileCalls\n"f" ${calls} 0 1 1 0 GROUP="X"\n0 aggregates\n`,
  });
  it("warns when a metric lacks a thread's file or disagrees on calls", () => {
    const t = parseTauProfiles([
      { folder: "MULTI__A", files: [file("A", 0, 1), file("A", 1, 1)] },
      { folder: "MULTI__B", files: [file("B", 0, 2)] },
    ]);
    const msgs = t.warnings.filter((w) => w.kind === "format").map((w) => w.message);
    expect(msgs.some((m) => /MULTI__B has no file for thread\(s\) 1,0,0/.test(m))).toBe(true);
    expect(msgs.some((m) => /profile\.0\.0\.0: 1 timer line\(s\) whose calls differ/.test(m))).toBe(true);
    expect(t.calls(0, 0)).toBe(1);
  });

  it("refuses a directory named as a profile file instead of leaving its thread out", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-dir-thread-"));
    try {
      writeFileSync(join(dir, "profile.0.0.0"), file("TIME", 0, 1).text);
      mkdirSync(join(dir, "profile.1.0.0"));
      expect(() => readTauProfile(dir)).toThrow(`cannot read '${join(dir, "profile.1.0.0")}': is a directory, not a file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says which profile files beside the MULTI__ folders it does not read", () => {
    const dir = mkdtempSync(join(tmpdir(), "ccasim-multi-"));
    try {
      mkdirSync(join(dir, "MULTI__A"));
      for (const f of [file("A", 0, 1), file("A", 1, 1)]) writeFileSync(join(dir, f.path), f.text);
      expect(readTauProfile(dir).warnings.filter((w) => w.kind === "format")).toEqual([]);
      // A single-metric run's files left beside them: read neither as a metric nor silently dropped.
      for (const node of [0, 1]) writeFileSync(join(dir, `profile.${node}.0.0`), file("TIME", node, 1).text);
      const t = readTauProfile(dir);
      expect(t.metrics).toEqual(["A"]);
      expect(t.warnings.map((w) => w.message)).toContain(`${dir}: 2 profile files beside the MULTI__ metric folders are not read (profile.0.0.0, profile.1.0.0): a profile directory holds either one metric's files or MULTI__<metric> folders`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
