import { PriorityQueue } from "js-sdsl";
import type { EventHandle, EventHandler, EventQueue } from "./event-queue.js";

interface Entry {
  time: number;
  order: number;
  handler: EventHandler | null;
  arg: unknown;
}

/**
 * The reference event list: js-sdsl's binary-heap `PriorityQueue` of entry objects. Slower and
 * larger than {@link HeapQueue}, but simple enough to trust; tests check the default queue fires
 * events in exactly the order this one does, and benchmarks report ratios against it.
 */
export class ReferenceQueue implements EventQueue {
  poppedTime = 0;
  poppedArg: unknown = undefined;
  private readonly pq = new PriorityQueue<Entry>([], (a, b) =>
    a.time !== b.time ? (a.time < b.time ? -1 : 1) : a.order - b.order,
  );
  private readonly byHandle = new Map<EventHandle, Entry>();
  private nextHandle = 1;
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(time: number, order: number, handler: EventHandler, arg: unknown): EventHandle {
    const e: Entry = { time, order, handler, arg };
    this.pq.push(e);
    const h = this.nextHandle++;
    this.byHandle.set(h, e);
    (e as Entry & { handle: number }).handle = h;
    this.live++;
    return h;
  }

  cancel(handle: EventHandle): boolean {
    const e = this.byHandle.get(handle);
    if (!e || e.handler === null) return false;
    e.handler = null;
    this.byHandle.delete(handle);
    this.live--;
    return true;
  }

  peekTime(): number {
    for (;;) {
      const top = this.pq.top();
      if (top === undefined) return Infinity;
      if (top.handler !== null) return top.time;
      this.pq.pop();
    }
  }

  pop(): EventHandler | undefined {
    for (;;) {
      const e = this.pq.pop();
      if (e === undefined) return undefined;
      if (e.handler === null) continue;
      this.byHandle.delete((e as Entry & { handle: number }).handle);
      this.live--;
      this.poppedTime = e.time;
      this.poppedArg = e.arg;
      return e.handler;
    }
  }
}
