import { describe, expect, it } from "vitest";
import { Interrupt, Simulation, WaitingLine, type SimEvent } from "../../engine/index.js";

describe("WaitingLine", () => {
  it("serves FIFO with one server: a NIC serialising messages", () => {
    const sim = new Simulation();
    const nic = new WaitingLine(sim, { name: "nic" });
    const trace: string[] = [];
    for (const [name, arrive, service] of [
      ["m1", 0, 3],
      ["m2", 1, 2],
      ["m3", 1, 1],
    ] as const)
      sim.process(
        (function* () {
          yield sim.timeout(arrive);
          yield nic.request();
          trace.push(`${name} starts ${sim.now}`);
          yield sim.timeout(service);
          nic.release();
          trace.push(`${name} ends ${sim.now}`);
        })(),
      );
    sim.run();
    expect(trace).toEqual(["m1 starts 0", "m1 ends 3", "m2 starts 3", "m2 ends 5", "m3 starts 5", "m3 ends 6"]);
  });

  it("serves by priority, FIFO among equal priorities, with several servers", () => {
    const sim = new Simulation();
    const line = new WaitingLine(sim, { capacity: 2, discipline: "priority" });
    const order: string[] = [];
    const job = (name: string, prio: number) =>
      sim.process(
        (function* () {
          yield line.request(prio);
          order.push(name);
          yield sim.timeout(10);
          line.release();
        })(),
      );
    job("first", 5);
    job("second", 5);
    job("low-a", 3);
    job("high", 1);
    job("low-b", 3);
    sim.run();
    expect(order).toEqual(["first", "second", "high", "low-a", "low-b"]);
    expect(line.inUse).toBe(0);
  });

  it("gives back the request of a process interrupted while it waits, whether still waiting or granted at that instant", () => {
    for (const interruptAt of [3, 5]) {
      const sim = new Simulation();
      const line = new WaitingLine(sim, { name: "bus" });
      const trace: string[] = [];
      let cancelled: boolean[] = [];
      sim.process(
        (function* () {
          yield line.request();
          yield sim.timeout(5);
          line.release();
        })(),
      );
      const user = (name: string, arrive: number) =>
        sim.process(
          (function* () {
            yield sim.timeout(arrive);
            const req: SimEvent<void> = line.request();
            try {
              yield req;
            } catch (e) {
              if (!(e instanceof Interrupt)) throw e;
              // At 5 the server was granted to this request (the release came first), unreceived.
              cancelled = [line.cancel(req), line.cancel(req)];
              trace.push(`${name} gave up at ${sim.now}`);
              return;
            }
            trace.push(`${name} starts ${sim.now}`);
            yield sim.timeout(1);
            line.release();
          })(),
        );
      const b = user("b", 1);
      user("c", 2);
      sim.process(
        (function* () {
          yield sim.timeout(interruptAt);
          b.interrupt("timeout");
        })(),
      );
      sim.run();
      expect(trace, `interrupt at ${interruptAt}`).toEqual([`b gave up at ${interruptAt}`, "c starts 5"]);
      // Given back once; the second call has nothing to give back.
      expect(cancelled).toEqual([true, false]);
      expect([line.inUse, line.queueLength]).toEqual([0, 0]);
    }
    // A request of another line is not this line's to give back.
    const sim = new Simulation();
    expect(new WaitingLine(sim).cancel(new WaitingLine(sim).request())).toBe(false);
  });

  it("rejects a release without a request and a bad capacity", () => {
    const sim = new Simulation();
    expect(() => new WaitingLine(sim).release()).toThrow(/without a matching request/);
    expect(() => new WaitingLine(sim, { capacity: 0 })).toThrow(/capacity/);
    // An unknown discipline is refused, not served as by priority.
    expect(() => new WaitingLine(sim, { discipline: "lifo" as never })).toThrow(new RangeError('waiting line discipline must be "fifo" or "priority", got "lifo"'));
  });
});
