import { describe, expect, it } from "vitest";
import { DeadlockError, Interrupt, InvalidDelayError, Simulation, type ProcessGenerator } from "../../engine/index.js";

describe("generator processes", () => {
  it("resumes after timeouts with their values and returns a value to waiters", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    const child = sim.process(
      (function* (): ProcessGenerator<number> {
        const v = yield sim.timeout(3, "three");
        trace.push(`child got ${v} at ${sim.now}`);
        return 42;
      })(),
      { name: "child" },
    );
    sim.process(
      (function* () {
        trace.push(`parent starts at ${sim.now}`);
        const r = yield child;
        trace.push(`parent got ${r} at ${sim.now}`);
        yield sim.timeout(1.5);
        trace.push(`parent ends at ${sim.now}`);
      })(),
      { name: "parent" },
    );
    sim.run();
    expect(trace).toEqual(["parent starts at 0", "child got three at 3", "parent got 42 at 3", "parent ends at 4.5"]);
  });

  it("resumes waiters of one event in the order they started waiting", () => {
    const sim = new Simulation();
    const ev = sim.event<string>("signal");
    const trace: string[] = [];
    for (const name of ["a", "b", "c"])
      sim.process(
        (function* () {
          const v = yield ev;
          trace.push(`${name}:${v}@${sim.now}`);
        })(),
      );
    sim.schedule(2, () => ev.succeed("go"));
    sim.run();
    expect(trace).toEqual(["a:go@2", "b:go@2", "c:go@2"]);
  });

  it("continues at once when yielding an event that was already processed", () => {
    const sim = new Simulation();
    const ev = sim.event<number>();
    ev.succeed(7);
    const seen: Array<[number, number]> = [];
    sim.schedule(5, () => {
      sim.process(
        (function* () {
          const v = yield ev;
          seen.push([sim.now, v]);
        })(),
      );
    });
    sim.run();
    expect(seen).toEqual([[5, 7]]);
  });

  it("throws a failed event's error at the yield, where the process can catch it", () => {
    const sim = new Simulation();
    const ev = sim.event("bad");
    const trace: string[] = [];
    sim.process(
      (function* () {
        try {
          yield ev;
        } catch (e) {
          trace.push(`caught ${(e as Error).message} at ${sim.now}`);
        }
      })(),
    );
    sim.schedule(1, () => ev.fail(new Error("boom")));
    sim.run();
    expect(trace).toEqual(["caught boom at 1"]);
  });

  it("propagates an error no process waits for out of run()", () => {
    const sim = new Simulation();
    sim.process(
      (function* () {
        yield sim.timeout(1);
        throw new Error("unhandled in process");
      })(),
    );
    expect(() => sim.run()).toThrow("unhandled in process");
  });

  it("rejects yielding something that is not an event", () => {
    const sim = new Simulation();
    let message = "";
    sim.process(
      (function* (): ProcessGenerator<void> {
        try {
          yield 5 as never;
        } catch (e) {
          message = (e as Error).message;
        }
      })(),
      { name: "p" },
    );
    sim.run();
    expect(message).toBe("process p yielded 5, which is not an event");
  });

  it("delivers interrupts before normal events at the same time and stops the wait", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    const sleeper = sim.process(
      (function* () {
        try {
          yield sim.timeout(10);
          trace.push("woke normally");
        } catch (e) {
          trace.push(`interrupted (${(e as Interrupt).cause}) at ${sim.now}`);
          yield sim.timeout(1);
          trace.push(`resumed work until ${sim.now}`);
        }
      })(),
      { name: "sleeper" },
    );
    sim.schedule(4, () => trace.push("normal event at 4"));
    sim.schedule(4, () => sleeper.interrupt("preempted"), undefined, -2);
    sim.run();
    expect(trace).toEqual(["interrupted (preempted) at 4", "normal event at 4", "resumed work until 5"]);
    // The original timeout at 10 must not resume the process a second time.
    expect(sim.now).toBe(10);
  });

  it("lets an interrupted process wait on the same event again without double resumption", () => {
    const sim = new Simulation();
    const gate = sim.event<string>("gate");
    const trace: string[] = [];
    const p = sim.process(
      (function* () {
        for (;;) {
          try {
            const v = yield gate;
            trace.push(`passed ${v} at ${sim.now}`);
            return;
          } catch (e) {
            trace.push(`interrupt at ${sim.now}`);
          }
        }
      })(),
    );
    sim.schedule(1, () => p.interrupt());
    sim.schedule(2, () => gate.succeed("open"));
    sim.run();
    expect(trace).toEqual(["interrupt at 1", "passed open at 2"]);
  });

  it("refuses to interrupt a finished process", () => {
    const sim = new Simulation();
    const p = sim.process((function* () {})());
    sim.run();
    expect(() => p.interrupt()).toThrow(/has finished/);
  });

  it("waits on any of several events and reports which came first", () => {
    const sim = new Simulation();
    let got: unknown;
    sim.process(
      (function* () {
        const a = sim.timeout(5, "slow");
        const b = sim.timeout(2, "fast");
        got = yield sim.anyOf([a, b]);
      })(),
    );
    sim.run();
    expect(got).toEqual({ index: 1, value: "fast" });
  });

  it("waits on all of several events and returns their values in order", () => {
    const sim = new Simulation();
    let got: unknown;
    let at = -1;
    sim.process(
      (function* () {
        got = yield sim.allOf([sim.timeout(3, "x"), sim.timeout(1, "y"), sim.timeout(2, "z")]);
        at = sim.now;
      })(),
    );
    sim.run();
    expect(got).toEqual(["x", "y", "z"]);
    expect(at).toBe(3);
  });

  it("nests waits: a process waiting on an allOf of processes waiting on anyOfs", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    const worker = (name: string, d1: number, d2: number) =>
      sim.process(
        (function* () {
          const r = (yield sim.anyOf([sim.timeout(d1, "t1"), sim.timeout(d2, "t2")])) as { value: string };
          trace.push(`${name} ${r.value}@${sim.now}`);
          return name;
        })(),
        { name },
      );
    sim.process(
      (function* () {
        const names = yield sim.allOf([worker("w1", 4, 6), worker("w2", 3, 1)]);
        trace.push(`all done ${JSON.stringify(names)}@${sim.now}`);
      })(),
    );
    sim.run();
    expect(trace).toEqual(["w2 t2@1", "w1 t1@4", 'all done ["w1","w2"]@4']);
  });

  it("reports blocked processes and what they wait on when the event list runs dry", () => {
    const sim = new Simulation();
    sim.process(
      (function* () {
        yield sim.event("message from rank 1");
      })(),
      { name: "rank0" },
    );
    sim.process(
      (function* () {
        yield sim.timeout(2);
        yield sim.event("message from rank 0");
      })(),
      { name: "rank1" },
    );
    sim.process(
      (function* () {
        yield sim.event("work");
      })(),
      { name: "server", daemon: true },
    );
    let err: DeadlockError | undefined;
    try {
      sim.run();
    } catch (e) {
      err = e as DeadlockError;
    }
    expect(err).toBeInstanceOf(DeadlockError);
    expect(err!.time).toBe(2);
    expect(err!.blocked).toEqual([
      { name: "rank0", waitingOn: "message from rank 1" },
      { name: "rank1", waitingOn: "message from rank 0" },
    ]);
    expect(err!.message).toContain("rank0 waits on message from rank 1");
    const sim2 = new Simulation();
    sim2.process(
      (function* () {
        yield sim2.event("never");
      })(),
      { name: "p" },
    );
    // A choice neither "throw" nor "report" is refused, not taken for "report".
    expect(() => sim2.run({ onDeadlock: "warn" as never })).toThrow(new TypeError('onDeadlock must be "throw" or "report", got "warn"'));
    const r = sim2.run({ onDeadlock: "report" });
    expect(r.reason).toBe("deadlock");
    expect(r.blocked).toEqual([{ name: "p", waitingOn: "never" }]);
  });

  it("leaves an event pending when succeed or fail is refused an invalid delay", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    const ev = sim.event<string>("signal");
    sim.process(
      (function* () {
        try {
          trace.push(`got ${yield ev}@${sim.now}`);
        } catch (e) {
          trace.push(`caught ${(e as Error).message}@${sim.now}`);
        }
      })(),
    );
    expect(() => ev.succeed("late", -1)).toThrow(InvalidDelayError);
    expect(() => ev.fail(new Error("x"), Number.NaN)).toThrow(InvalidDelayError);
    expect(ev.triggered).toBe(false);
    expect(ev.ok).toBe(true);
    expect(ev.value).toBeUndefined();
    ev.succeed("on time", 2);
    sim.run();
    expect(trace).toEqual(["got on time@2"]);
  });
});
