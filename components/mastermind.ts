import type { InvocationRecord } from "../profile/index.js";

export type { InvocationRecord };

/** What the Mastermind reads from the run at the start and end of an invocation. */
export interface MastermindProbe {
  /** Current simulated time (microseconds). */
  now(): number;
  /** Total MPI time of `rank` so far (microseconds, outermost MPI calls only). */
  mpiTime(rank: number): number;
  /** Current counter values of `rank`, in the order of `counterNames`. */
  readCounters(rank: number, out: Float64Array): void;
}

interface Open {
  component: string;
  port: string;
  method: string;
  rank: number;
  parameters: Record<string, number | string>;
  start: number;
  mpi: number;
  counters: Float64Array;
}

/**
 * The Mastermind: for every proxied invocation it opens a record with the parameters the proxy
 * extracted, and on return closes it with wall time, MPI time, compute time and counter deltas.
 * Recording costs no simulated time (measurement overhead is excluded, as in the papers).
 */
export class Mastermind {
  /** Completed records, in completion order (deterministic). */
  readonly records: InvocationRecord[] = [];
  private readonly open: Open[] = [];
  private readonly free: number[] = [];
  private readonly scratch: Float64Array;

  constructor(readonly counterNames: readonly string[], private readonly probe: MastermindProbe) {
    this.scratch = new Float64Array(counterNames.length);
  }

  /** Opens a record; returns a token for {@link end}. */
  begin(rank: number, component: string, port: string, method: string, parameters: Record<string, number | string>): number {
    // Open records are reused slots (nesting depth, not invocation count, decides how many exist):
    // no allocation per invocation beyond the record that is kept.
    let token: number;
    let o: Open;
    if (this.free.length > 0) {
      token = this.free.pop()!;
      o = this.open[token];
      o.component = component;
      o.port = port;
      o.method = method;
      o.rank = rank;
      o.parameters = parameters;
    } else {
      token = this.open.length;
      o = { component, port, method, rank, parameters, start: 0, mpi: 0, counters: new Float64Array(this.counterNames.length) };
      this.open.push(o);
    }
    o.start = this.probe.now();
    o.mpi = this.probe.mpiTime(rank);
    this.probe.readCounters(rank, o.counters);
    return token;
  }

  /** Closes the record opened with `token`. */
  end(token: number): void {
    const o = this.open[token];
    this.free.push(token);
    const now = this.probe.now();
    const wall = now - o.start;
    const mpi = this.probe.mpiTime(o.rank) - o.mpi;
    this.probe.readCounters(o.rank, this.scratch);
    const counters: Record<string, number> = {};
    for (let k = 0; k < this.counterNames.length; k++) counters[this.counterNames[k]] = this.scratch[k] - o.counters[k];
    this.records.push({
      component: o.component,
      port: o.port,
      method: o.method,
      rank: o.rank,
      parameters: o.parameters,
      start: o.start,
      wallTime: wall,
      mpiTime: mpi,
      computeTime: wall - mpi,
      counters,
    });
  }
}
