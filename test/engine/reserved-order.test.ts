import { describe, expect, it } from "vitest";
import { InvalidDelayError, Simulation } from "../../engine/index.js";

describe("reserved event orders", () => {
  it("an event scheduled later with a reserved order fires where it would have fired had it been scheduled at reservation time", () => {
    const sim = new Simulation();
    const trace: string[] = [];
    const reserved = sim.reserveOrder();
    sim.schedule(5, () => trace.push("scheduled after the reservation"));
    sim.schedule(2, () => {
      // At t = 2 the model decides it needs the event after all, for t = 5.
      sim.scheduleReserved(5, reserved, () => trace.push("reserved"));
    });
    sim.run();
    expect(trace).toEqual(["reserved", "scheduled after the reservation"]);
  });

  it("a reservation consumes a sequence number, so later events keep their relative order", () => {
    const a = new Simulation();
    const b = new Simulation();
    const ta: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < 4; i++) {
      a.schedule(1, () => ta.push(i));
      b.reserveOrder();
      b.schedule(1, () => tb.push(i));
    }
    a.run();
    b.run();
    expect(tb).toEqual(ta);
  });

  it("rejects times before now", () => {
    const sim = new Simulation({ startTime: 10 });
    expect(() => sim.scheduleReserved(9, sim.reserveOrder(), () => {})).toThrow(InvalidDelayError);
    expect(() => sim.reserveOrder(10_000)).toThrow(RangeError);
  });
});
