import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { PPK, TAU } from "./data.js";
import { readTauXmlFiles } from "../../profile/tau/snapshot-read.js";
import { detectTrialFormat, isTauXmlText, measurementFileKind, parseTauXmlProfiles, ProfileFormatError, readTrial } from "../../index.js";

const scratch = mkdtempSync(join(tmpdir(), "ccasim-tau-xml-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The thread block and metric definitions `TauSnapshot.cpp` starts a snapshot file with. */
function snapshotStart(node: number, thread: number, pid: number, metrics: string[] = ["TIME"]): string {
  const id = `${node}.0.${thread}.${pid}`;
  return (
    `<profile_xml>\n\n<thread id="${id}" node="${node}" context="0" thread="${thread}">\n` +
    `<metadata>\n<attribute>\n<name>Node Name</name>\n<value>n${node}</value>\n</attribute>\n<attribute>\n<name>pid</name>\n<value>${pid}</value>\n</attribute>\n</metadata>\n</thread>\n\n` +
    `<definitions thread="${id}">\n${metrics.map((m, i) => `<metric id="${i}"><name>${m}</name>\n<units>unknown</units>\n</metric>\n`).join("")}</definitions>\n`
  );
}

/** One snapshot as `Tau_snapshot_writeSnapshot` appends it: new definitions, then the profile. */
function snapshot(id: string, name: string, events: [number, string, string][], userEvents: [number, string][], rows: string[], atomics: string[], first: boolean, metrics = "0 "): string {
  let s = first ? "" : "<profile_xml>\n";
  if (events.length > 0) s += `\n<definitions thread="${id}">\n${events.map(([i, n, g]) => `<event id="${i}"><name>${n}</name><group>${g}</group></event>\n`).join("")}</definitions>\n`;
  if (userEvents.length > 0) s += `\n<definitions thread="${id}">\n${userEvents.map(([i, n]) => `<userevent id="${i}"><name>${n}</name></userevent>\n`).join("")}</definitions>\n`;
  s += `\n<profile thread="${id}">\n<name>${name}</name>\n<timestamp>1436320430136403</timestamp>\n<interval_data metrics="${metrics}">\n${rows.join("\n")}\n</interval_data>\n`;
  s += `<atomic_data>\n${atomics.join("\n")}\n</atomic_data>\n</profile>\n\n</profile_xml>\n`;
  return s;
}

/** A snapshot file of thread `node`,0,0 with two snapshots: `main` and `solve` (a timer named with `<`, `&`), then `final`. */
function twoSnapshots(node: number): string {
  const id = `${node}.0.0.${100 + node}`;
  return (
    snapshotStart(node, 0, 100 + node) +
    snapshot(id, "iteration 1", [[0, "main() ", "TAU_DEFAULT"], [1, "solve&lt;double&gt; ", "TAU_USER|SOLVER"]], [[0, "Message size"]], ["0 1 1 50 150 ", "1 2 0 100 100 "], ["0 2 8 4 6 80"], true) +
    snapshot(id, "final", [[2, "<![CDATA[write<out> & close]]>", "IO"]], [], ["0 1 2 60 400 ", "1 5 0 300 300 ", "2 1 0 40 40 "], ["0 3 8 4 6.666666666666667 144"], false)
  );
}

function write(name: string, text: string | Uint8Array): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** The error a parse of one text gives. */
function errorOf(text: string): ProfileFormatError {
  try {
    parseTauXmlProfiles([{ path: "p.xml", text }]);
  } catch (e) {
    return e as ProfileFormatError;
  }
  throw new Error("no error");
}

describe("TAU XML profiles: snapshot files (TAU_PROFILE_FORMAT=snapshot)", () => {
  it("reads a folder of snapshot.N.C.T files, each thread's last snapshot, names decoded and normalized", () => {
    const dir = join(scratch, "snapshots");
    mkdirSync(dir);
    writeFileSync(join(dir, "snapshot.0.0.0"), twoSnapshots(0));
    writeFileSync(join(dir, "snapshot.1.0.0"), twoSnapshots(1));
    expect(detectTrialFormat(dir)).toBe("xml");
    expect(detectTrialFormat(join(dir, "snapshot.1.0.0"))).toBe("xml");
    const t = readTrial(dir);
    expect(t.threads.map((x) => x.node)).toEqual([0, 1]);
    expect(t.timers.map((x) => x.name)).toEqual(["main()", "solve<double>", "write<out> & close"]);
    expect(t.timer("solve<double>").groups).toEqual(["TAU_USER", "SOLVER"]);
    // The "final" snapshot's totals, not the first one's (nor their sum).
    const th = t.threadIndex(1);
    const solve = t.timer("solve<double>").index;
    expect([t.calls(th, solve), t.exclusive(0, th, solve), t.inclusive(0, th, solve)]).toEqual([5, 300, 300]);
    expect([t.calls(th, 0), t.subroutines(th, 0), t.inclusive(0, th, 0)]).toEqual([1, 2, 400]);
    // Defined before the second snapshot, present only there.
    expect(t.calls(th, t.timer("write<out> & close").index)).toBe(1);
    const e = t.findUserEvent("Message size")!;
    const s = t.eventSlot(th, e.index);
    // TAU's order: samples, max, min, mean, sum of squares.
    expect([t.events.count[s], t.events.max[s], t.events.min[s], t.events.sumSquares[s]]).toEqual([3, 8, 4, 144]);
    expect(t.metadata.get("Node Name")).toBeUndefined();
    expect(t.threadMetadata[th].get("Node Name")).toBe("n1");
    expect(t.warnings).toEqual([]);
  });

  it("reads a folder holding TAU's merged tauprofile.xml (and no profile.N.C.T)", () => {
    const dir = join(scratch, "merged");
    mkdirSync(dir);
    writeFileSync(join(dir, "tauprofile.xml"), twoSnapshots(0));
    expect(detectTrialFormat(dir)).toBe("xml");
    expect(readTrial(dir).timers.length).toBe(3);
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    expect(() => readTrial(empty)).toThrow(/no TAU profile files/);
  });

  it("reads a gzip-compressed file by its content, whatever its name", () => {
    const path = write("run.dat", gzipSync(twoSnapshots(0)));
    expect(detectTrialFormat(path)).toBe("xml");
    expect(measurementFileKind(path)).toBe("a TAU XML profile");
    expect(readTrial(path).timers.length).toBe(3);
  });

  it("reads a thread's metadata whose CDATA sections hold markup, as ParaProf does", () => {
    // TauXML.cpp writes a value holding '<' or '&' in a CDATA section, verbatim.
    const text = twoSnapshots(0).replace("<value>n0</value>", "<value><![CDATA[./a.out '<value>' & more]]></value>");
    expect(parseTauXmlProfiles([{ path: "p.xml", text }]).metadata.get("Node Name")).toBe("./a.out '<value>' & more");
  });

  it("reads ids far apart, as a table of the ids given (not of every id up to the largest)", () => {
    const id = "0.0.0.100";
    const text =
      snapshotStart(0, 0, 100, ["TIME"]).replace('<metric id="0">', '<metric id="70000000">') +
      snapshot(id, "final", [[0, "main() ", "TAU_DEFAULT"], [300000000, "big() ", "TAU_USER"]], [[4294967296, "Bytes"]], ["0 1 1 10 100 ", "300000000 1 0 90 90 "], ["4294967296 1 5 5 5 25"], true, "70000000 ");
    const t = parseTauXmlProfiles([{ path: "p.xml", text }]);
    expect(t.calls(0, t.timer("big()").index)).toBe(1);
    expect(t.events.count[t.eventSlot(0, t.findUserEvent("Bytes")!.index)]).toBe(1);
    expect(errorOf(text.replace("300000000 1 0 90 90", "299999999 1 0 90 90")).message).toMatch(/event id 299999999 is not defined for this thread/);
  });

  it("takes the later profile of two thread ids of one node, context and thread, as ParaProf does", () => {
    // Each id has its definitions (here numbered differently); the thread is 0,0,0 for both.
    const a = snapshotStart(0, 0, 100) + snapshot("0.0.0.100", "final", [[0, "main() ", "TAU_DEFAULT"]], [], ["0 1 0 10 100 "], [], true);
    const b = snapshotStart(0, 0, 999) + snapshot("0.0.0.999", "final", [[0, "f() ", "TAU_USER"], [1, "main() ", "TAU_DEFAULT"]], [], ["1 2 0 20 200 "], [], true);
    const t = parseTauXmlProfiles([{ path: "p.xml", text: a + b }]);
    expect(t.threads.length).toBe(1);
    const main = t.timer("main()").index;
    expect([t.calls(0, main), t.exclusive(0, 0, main), t.inclusive(0, 0, main)]).toEqual([2, 20, 200]);
  });

  it("reads rows that a comment interrupts, as XML (and ParaProf) has them: one row", () => {
    const text = twoSnapshots(0).replace("1 5 0 300 300 ", "1 5 0 <!-- exclusive, inclusive -->300 300 ").replace("2 1 0 40 40 ", "2 1 0 40 40 <!-- last -->");
    const t = parseTauXmlProfiles([{ path: "p.xml", text }]);
    expect(t.inclusive(0, 0, t.timer("solve<double>").index)).toBe(300);
    expect(t.calls(0, t.timer("write<out> & close").index)).toBe(1);
    expect(errorOf(text.replace("<!-- exclusive, inclusive -->300 300", "<!-- x -->300")).message).toMatch(/^p\.xml:\d+: expected 5 numbers .*found '1 5 0 300'$/);
  });

  it("reads a file with CRLF line ends and rows of several metrics, listed in any order", () => {
    const id = "0.0.0.100";
    const text = (snapshotStart(0, 0, 100, ["TIME", "PAPI_FP_OPS"]) + snapshot(id, "final", [[0, "main() ", "TAU_DEFAULT"], [1, "f() ", "TAU_USER"]], [[0, "Bytes"]], ["0 1 1 7 70 10 100 ", "1 1 0 5\t50 90 90"], ["0 2 5 1 3 26"], true, "1 0 ")).replace(/\n/g, "\r\n");
    const t = parseTauXmlProfiles([{ path: "p.xml", text }]);
    expect(t.metrics).toEqual(["TIME", "PAPI_FP_OPS"]);
    expect([0, 1].map((m) => [t.exclusive(m, 0, 0), t.inclusive(m, 0, 0), t.exclusive(m, 0, 1), t.inclusive(m, 0, 1)])).toEqual([
      [10, 100, 90, 90],
      [7, 70, 5, 50],
    ]);
    const s = t.eventSlot(0, 0);
    expect([t.events.count[s], t.events.max[s], t.events.min[s], t.events.mean[s], t.events.sumSquares[s]]).toEqual([2, 5, 1, 3, 26]);
  });

  it("tells a TAU XML profile by its first element, after a declaration and comments, in time linear in them", () => {
    expect(isTauXmlText('\uFEFF<?xml version="1.0"?>\n<!-- a -->\n<!-- b --><profile_xml>\n')).toBe(true);
    expect(isTauXmlText("<profile_xmlx>")).toBe(false);
    expect(isTauXmlText("<!-- a <profile_xml>")).toBe(false);
    const started = performance.now();
    expect(isTauXmlText(`${"<!---->".repeat(31)}<cube>`)).toBe(false);
    expect(isTauXmlText(`${"<!---->".repeat(31)}<profile_xml>`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("decodes a large file a piece of whole documents at a time, naming lines as in the whole file", () => {
    // A merged profile of a large run holds more text than a string can (2^29 characters): its
    // documents are decoded in pieces of about 128 MiB, here of 1 to 600 bytes.
    const text = twoSnapshots(0) + "\0" + twoSnapshots(1) + "\0" + twoSnapshots(2);
    const path = write("pieces.xml", text);
    const whole = readTrial(path);
    for (const pieceBytes of [1, 600, 2000]) {
      const t = readTauXmlFiles([path], {}, pieceBytes);
      expect(t.threads).toEqual(whole.threads);
      expect(Array.from(t.values.inclusive[0])).toEqual(Array.from(whole.values.inclusive[0]));
      expect(Array.from(t.events.sumSquares)).toEqual(Array.from(whole.events.sumSquares));
    }
    // The last thread's last row names an event no definition gives.
    const at = text.lastIndexOf("1 5 0 300 300 ");
    const bad = write("pieces-bad.xml", `${text.slice(0, at)}9${text.slice(at + 1)}`);
    const line = text.slice(0, at).split("\n").length;
    for (const pieceBytes of [1, 600]) expect(() => readTauXmlFiles([bad], {}, pieceBytes)).toThrow(new RegExp(`pieces-bad\\.xml:${line}: event id 9 is not defined`));
  });

  it("tells a file with a long preamble (declaration, comments) by its content, compressed or not", () => {
    const preamble = `<?xml version="1.0"?>\n${"<!-- a comment of the file's origin and settings -->\n".repeat(60)}`;
    const plain = write("long-preamble.dat", preamble + twoSnapshots(0));
    expect(detectTrialFormat(plain)).toBe("xml");
    const gz = write("long-preamble.gz", gzipSync(preamble + twoSnapshots(0)));
    expect(detectTrialFormat(gz)).toBe("xml");
    expect(readTrial(gz).timers.length).toBe(3);
  });

  it("takes a NUL or other control character between documents as a space, as ParaProf does", () => {
    const t = parseTauXmlProfiles([{ path: "p.xml", text: twoSnapshots(0).replace("</profile_xml>\n<profile_xml>", "</profile_xml>\n\u0000<profile_xml>") }]);
    expect(t.calls(0, t.timer("solve<double>").index)).toBe(5);
  });
});

describe("TAU XML profiles: choosing a snapshot", () => {
  const dir = join(scratch, "choose");
  mkdirSync(dir);
  writeFileSync(join(dir, "snapshot.0.0.0"), twoSnapshots(0));
  writeFileSync(join(dir, "snapshot.1.0.0"), twoSnapshots(1));
  const solveOf = (t: ReturnType<typeof readTrial>) => [t.calls(1, t.timer("solve<double>").index), t.exclusive(0, 1, t.timer("solve<double>").index)];

  it("reads the last by default and says so in each thread's metadata", () => {
    const t = readTrial(dir);
    expect(solveOf(t)).toEqual([5, 300]);
    expect(t.threadMetadata[1].get("TAU snapshot") ?? t.metadata.get("TAU snapshot")).toBe("final (2 of 2)");
  });

  it("reads the one of an index (0 the first, -1 the last) or of a name", () => {
    for (const snapshot of [0, -2, "iteration 1"]) {
      const t = readTrial(dir, { snapshot });
      expect(solveOf(t), String(snapshot)).toEqual([2, 100]);
      // Defined only before the second snapshot: no values in the first.
      expect(t.values.present[1 * t.timers.length + t.timer("write<out> & close").index]).toBe(0);
      expect(t.threadMetadata[1].get("TAU snapshot") ?? t.metadata.get("TAU snapshot")).toBe("iteration 1 (1 of 2)");
    }
    expect(solveOf(readTrial(dir, { snapshot: -1 }))).toEqual([5, 300]);
  });

  it("names a thread without the snapshot asked for, with its snapshots", () => {
    expect(() => readTrial(dir, { snapshot: 2 })).toThrow(/thread 0,0,0 has no snapshot 2 \(counting 0 as the first\): its 2 snapshot\(s\) are 'iteration 1', 'final'$/);
    expect(() => readTrial(dir, { snapshot: "iteration 9" })).toThrow(/has no snapshot named 'iteration 9'/);
    expect(() => readTrial(join(PPK, "mpas.ppk"), { snapshot: 0 })).toThrow(/a snapshot is chosen of a TAU XML profile only; a ParaProf packed profile holds one profile per thread/);
  });

  it("is an option of profile show and profile convert", async () => {
    let out = "";
    const code = await main(["profile", "show", dir, "--snapshot", "0", "--thread", "1", "--unit", "us"], { out: (x) => (out += x), err: () => {} });
    expect(code).toBe(0);
    expect(out).toContain("\n 66.7          100          100           2           0         50 solve<double>\n");
    const converted = join(scratch, "choose-converted");
    expect(await main(["profile", "convert", dir, converted, "--snapshot", "iteration 1"], { out: () => {}, err: () => {} })).toBe(0);
    expect(solveOf(readTrial(converted))).toEqual([2, 100]);
    // `name:` gives a name whatever it looks like; an empty one is refused.
    const named = join(scratch, "choose-named");
    expect(await main(["profile", "convert", dir, named, "--snapshot", "name:final"], { out: () => {}, err: () => {} })).toBe(0);
    expect(solveOf(readTrial(named))).toEqual([5, 300]);
    let err = "";
    expect(await main(["profile", "show", dir, "--snapshot", ""], { out: () => {}, err: (x) => (err += x) })).toBe(2);
    expect(err).toMatch(/a snapshot name must not be empty/);
  });
});

describe("TAU XML profiles: --snapshot in every command that reads a profile", () => {
  const dir = join(scratch, "choose-commands");
  mkdirSync(dir);
  writeFileSync(join(dir, "snapshot.0.0.0"), twoSnapshots(0));
  writeFileSync(join(dir, "snapshot.1.0.0"), twoSnapshots(1));
  const run = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = "";
    let err = "";
    const code = await main(args, { out: (x) => (out += x), err: (x) => (err += x) });
    return { code, out, err };
  };
  /** The mean inclusive time of solve<double> in prune's JSON (us), kept or pruned. */
  const pruned = (out: string): number => {
    const tree = (JSON.parse(out) as { trees: { kept: { name: string; inclusive: number }[]; pruned: { name: string; inclusive: number }[] }[] }).trees[0];
    return [...tree.kept, ...tree.pruned].find((n) => n.name === "solve<double>")!.inclusive;
  };

  it("prune prunes the snapshot chosen", async () => {
    const last = await run(["prune", dir, "--json"]);
    const first = await run(["prune", dir, "--json", "--snapshot", "iteration 1"]);
    expect([last.code, first.code]).toEqual([0, 0]);
    expect([pruned(last.out), pruned(first.out)]).toEqual([300, 100]);
  });

  it("fit, power, select --prune-trial and report read it, and name a snapshot that is not there", async () => {
    const missing = /thread 0,0,0 has no snapshot named 'iteration 9'/;
    for (const args of [
      ["fit", dir, "--timer", "solve", "--q", "ranks", "--snapshot", "iteration 9"],
      ["power", dir, "--snapshot", "iteration 9"],
      ["select", "--known-models", "--input", "x=2", "--prune-trial", dir, "--snapshot", "iteration 9"],
      ["report", dir, "--out", join(scratch, "choose.html"), "--snapshot", "iteration 9"],
    ]) {
      const r = await run(args);
      expect(r.code, args[0]).toBe(2);
      expect(r.err, args[0]).toMatch(missing);
    }
    const report = await run(["report", dir, "--out", join(scratch, "choose.html"), "--snapshot", "0"]);
    expect(report.code).toBe(0);
    // A snapshot is refused of a profile of another format, and without a profile to read it of.
    const ppk = await run(["prune", join(PPK, "mpas.ppk"), "--snapshot", "0"]);
    expect([ppk.code, ppk.err]).toEqual([2, expect.stringMatching(/a snapshot is chosen of a TAU XML profile only/)]);
    const alone = await run(["select", "--known-models", "--input", "x=2", "--snapshot", "0"]);
    expect([alone.code, alone.err]).toEqual([2, expect.stringMatching(/--snapshot chooses the snapshot of the profile of --prune-trial; it needs --prune-trial/)]);
    const records = await run(["fit", join(scratch, "none.csv"), "--parameter", "Q", "--snapshot", "0"]);
    expect([records.code, records.err]).toEqual([2, expect.stringMatching(/--snapshot does not apply to records/)]);
  });

  it("report refuses a snapshot of a run's TAU text profile before streaming the run's records", async () => {
    const folder = join(scratch, "choose-run");
    cpSync(join(TAU, "hatchet-cpi-mpi"), join(folder, "profile"), { recursive: true });
    // Records the report would stream first (a run's may be millions): here, unreadable ones.
    writeFileSync(join(folder, "records.csv"), "component,port,method\n");
    const r = await run(["report", folder, "--out", join(scratch, "choose-run.html"), "--snapshot", "0"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/a snapshot is chosen of a TAU XML profile only; a TAU text profile holds one profile per thread/);
    // Without --snapshot the records are read, and their error is the report's.
    expect((await run(["report", folder, "--out", join(scratch, "choose-run.html")])).err).toMatch(/missing column/);
  });

  it("a folder without profile files is named as such, not as a TAU text profile, when a snapshot is asked of it", async () => {
    const empty = join(scratch, "choose-empty");
    mkdirSync(empty);
    const recordsOnly = join(scratch, "choose-records-only");
    mkdirSync(recordsOnly);
    writeFileSync(join(recordsOnly, "records.csv"), "component,port,method,rank,start [us],wall_time [us],mpi_time [us],compute_time [us],param:Q\nA,p,m,0,0,2,0,2,1\n");
    for (const folder of [empty, recordsOnly]) {
      expect(() => readTrial(folder, { snapshot: 0 })).toThrow(/no TAU profile files/);
      for (const args of [
        ["prune", folder, "--snapshot", "0"],
        ["report", folder, "--out", join(scratch, "choose-none.html"), "--snapshot", "0"],
      ]) {
        const r = await run(args);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.err, args.join(" ")).not.toMatch(/TAU text profile/);
        expect(r.err, args.join(" ")).toMatch(/no TAU profile files/);
      }
    }
  });
});

describe("TAU XML profiles: Score-P's tau_snapshot output", () => {
  it("reads several definitions blocks per thread and a PAPI metric listed after TIME", () => {
    // As scorep_profile_tau_writer.c writes a thread: no metadata, metrics, user events and
    // callpaths in separate definitions blocks, data rows with `metrics="0 1"`.
    const text =
      `<profile_xml>\n<thread id="0.0.0.0" node="0" context="0" thread="0">\n</thread>\n\n` +
      `<definitions thread="0.0.0.0">\n<metric id="0"><name>TIME</name>\n<units>ms</units>\n</metric>\n<metric id="1"><name>PAPI_FP_OPS</name>\n<units>#</units>\n</metric>\n</definitions>\n\n` +
      `<definitions thread="0.0.0.0">\n</definitions>\n\n` +
      `<definitions thread="0.0.0.0">\n<event id="0"><name>main</name><group>TAU_DEFAULT</group></event>\n<event id="1"><name>main =&gt; foo</name><group>TAU_CALLPATH</group></event>\n</definitions>\n\n` +
      `<profile thread="0.0.0.0">\n<name>final</name>\n<interval_data metrics="0 1">\n0 1 3 20 100 7 50\n1 3 0 80 80 43 43\n</interval_data>\n<atomic_data>\n</atomic_data>\n</profile>\n\n</profile_xml>\n`;
    const t = parseTauXmlProfiles([{ path: "scorep.xml", text }]);
    expect(t.metrics).toEqual(["TIME", "PAPI_FP_OPS"]);
    const cp = t.findCallpath(["main", "foo"])!;
    expect([t.calls(0, cp.index), t.exclusive(1, 0, cp.index), t.inclusive(0, 0, cp.index)]).toEqual([3, 43, 80]);
  });
});

describe("TAU XML profiles: malformed input is named by file and line", () => {
  const good = twoSnapshots(0);
  const cases: [string, string, RegExp][] = [
    ["an undefined event id", good.replace("1 5 0 300 300 ", "7 5 0 300 300 "), /^p\.xml:\d+: event id 7 is not defined for this thread$/],
    ["a row one number short", good.replace("1 5 0 300 300 ", "1 5 0 300 "), /^p\.xml:\d+: expected 5 numbers \(event calls subrs and an exclusive and inclusive value per metric listed\), found '1 5 0 300'$/],
    ["a word among the numbers", good.replace("1 5 0 300 300 ", "1 5 0 300 x "), /expected 5 numbers/],
    ["a number beyond a double", good.replace("1 5 0 300 300 ", "1 5 0 300 1e309 "), /^p\.xml:\d+: '1e309' is not a finite number \(event calls subrs/],
    ["a negative call count", good.replace("1 5 0 300 300 ", "1 -5 0 300 300 "), /calls and subroutine calls are counts, found calls -5/],
    ["a metric the thread does not define", good.replace('<interval_data metrics="0 ">\n0 1 2', '<interval_data metrics="0 3">\n0 1 2'), /metric 3 is not defined for this thread/],
    ["an end tag that does not match", good.replace("</atomic_data>", "</atomic>"), /<\/atomic> where <\/atomic_data> was expected/],
    ["a file cut after a tag", good.slice(0, good.lastIndexOf("</profile>") + 10), /the input ends inside <profile_xml> \(no <\/profile_xml>\)/],
    ["a file cut inside a tag", good.slice(0, good.lastIndexOf("</profile>") + 5), /an end tag is not closed/],
    ["two <interval_data> blocks in one profile", good.replace("</interval_data>\n<atomic_data>", '</interval_data>\n<interval_data metrics="0 ">\n0 1 0 1 1\n</interval_data>\n<atomic_data>'), /^p\.xml:\d+: a second <interval_data> in one <profile>$/],
    ["two <atomic_data> blocks in one profile", good.replace("</atomic_data>\n</profile>", "</atomic_data>\n<atomic_data>\n0 1 1 1 1 1\n</atomic_data>\n</profile>"), /^p\.xml:\d+: a second <atomic_data> in one <profile>$/],
    ["a profile of an undeclared thread", good.replace('<profile thread="0.0.0.100">', '<profile thread="9.0.0.1">'), /profile of thread "9\.0\.0\.1", which no <thread> before it declares/],
    ["text outside the documents", `${good}trailing words`, /text outside <profile_xml>: trailing words/],
    ["another XML document", "<?xml version=\"1.0\"?>\n<cube version=\"4.0\"></cube>", /^p\.xml:2: <cube> where <profile_xml> was expected: not a TAU XML profile$/],
  ];
  for (const [what, text, message] of cases) {
    it(`refuses ${what}`, () => {
      const e = errorOf(text);
      expect(e).toBeInstanceOf(ProfileFormatError);
      expect(e.message).toMatch(message);
    });
  }

  it("names malformed metadata at its <metadata> line", () => {
    const text = good.replace("<name>pid</name>\n", "");
    const line = text.slice(0, text.indexOf("<metadata>")).split("\n").length;
    const e = errorOf(text);
    expect(e.message).toMatch(/malformed metadata of thread "0\.0\.0\.100": /);
    expect(e.line).toBe(line);
  });

  it("names the line of the offending row", () => {
    const text = good.replace("1 5 0 300 300 ", "7 5 0 300 300 ");
    const line = text.slice(0, text.indexOf("7 5 0 300 300")).split("\n").length;
    expect(errorOf(text).line).toBe(line);
  });

  it("refuses corrupt gzip data by the reader's own message", () => {
    const gz = gzipSync(good);
    const path = write("cut.xml.gz", gz.subarray(0, gz.length - 30));
    // Told by its (partly inflated) content, then refused by the XML reader for its gzip stream.
    expect(detectTrialFormat(path)).toBe("xml");
    expect(() => readTrial(path)).toThrow(/cut\.xml\.gz: corrupt gzip data: /);
  });
});

describe("ccasim profile with TAU XML profiles", () => {
  async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = "";
    let err = "";
    const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  }

  it("shows one and converts it to a TAU text profile that reads back the same", async () => {
    const path = write("tauprofile.xml", twoSnapshots(0));
    const shown = await run("profile", "show", path, "--unit", "us");
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/1 thread\(s\), 1 metric\(s\) \[TIME\], 3 timers, 1 user events/);
    const out = join(scratch, "converted");
    expect((await run("profile", "convert", path, out)).code).toBe(0);
    const a = readTrial(path);
    const b = readTrial(out);
    expect(b.timers.map((x) => x.name)).toEqual(a.timers.map((x) => x.name));
    expect(Array.from(b.values.inclusive[0])).toEqual(Array.from(a.values.inclusive[0]));
    expect(Array.from(b.values.calls)).toEqual(Array.from(a.values.calls));
  });

  it("says what a malformed one is, with exit code 2", async () => {
    const path = write("bad.xml", twoSnapshots(0).replace("</atomic_data>", "</atomic>"));
    const r = await run("profile", "show", path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.xml:\d+: <\/atomic> where <\/atomic_data> was expected/);
  });
});
