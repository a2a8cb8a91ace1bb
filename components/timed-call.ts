import type { Yieldable } from "../engine/index.js";
import type { PortMethod } from "./component.js";
import type { CallArgs } from "./ports.js";

const NOT_STARTED = 0;
const RUNNING = 1;
const DONE = 2;

/**
 * One call of a component method under a timer (and, for a proxied port, a Mastermind record):
 * the timer starts when the call starts running and stops when the method returns, exactly as a
 * generator wrapper `{ start; r = yield* impl(args); stop; return r }` would.
 *
 * It is a hand-written iterator rather than a generator: `yield*` resumes every delegating frame
 * on each resume of the innermost one, and a plain `next()` costs much less than a generator frame.
 * As with such a wrapper, the timer is not stopped when the method throws or is returned early.
 */
export class TimedCall implements Generator<Yieldable, unknown, any> {
  private state = NOT_STARTED;
  private inner: Generator<Yieldable, unknown, any> | undefined;
  private token = -1;

  /**
   * @param method - the method, with what its proxy does around a call
   * @param args - the call's arguments
   */
  constructor(
    private readonly method: PortMethod,
    private readonly args: CallArgs,
  ) {}

  next(value?: unknown): IteratorResult<Yieldable, unknown> {
    if (this.state !== RUNNING) {
      if (this.state === DONE) return { value: undefined, done: true };
      this.begin();
    }
    let r: IteratorResult<Yieldable, unknown>;
    try {
      r = this.inner!.next(value);
    } catch (err) {
      this.state = DONE; // a method that throws ends the call, without a stop
      throw err;
    }
    if (r.done) this.finish();
    return r;
  }

  throw(e: unknown): IteratorResult<Yieldable, unknown> {
    if (this.state !== RUNNING) {
      this.state = DONE;
      throw e;
    }
    let r: IteratorResult<Yieldable, unknown>;
    try {
      r = this.inner!.throw(e);
    } catch (err) {
      this.state = DONE;
      throw err;
    }
    if (r.done) this.finish();
    return r;
  }

  return(value: unknown): IteratorResult<Yieldable, unknown> {
    if (this.state !== RUNNING) {
      this.state = DONE;
      return { value, done: true };
    }
    const r = this.inner!.return(value);
    if (r.done) this.state = DONE; // an early return skips the stop, as in a generator wrapper
    return r;
  }

  [Symbol.iterator](): this {
    return this;
  }

  private begin(): void {
    this.token = this.method.enter(this.args);
    this.state = DONE; // until the method is created: if that throws, the call is over
    this.inner = this.method.impl(this.args);
    this.state = RUNNING;
  }

  private finish(): void {
    this.state = DONE;
    this.method.leave(this.token);
  }
}
