/** Statistics of one atomic user event on one rank: what TAU keeps (count, min, max, mean, sum of squares). */
export interface UserEventStats {
  count: number;
  min: number;
  max: number;
  sum: number;
  sumSqr: number;
}

/** Atomic user events of all ranks (paper 001's Event interface: a named trigger with a value). */
export class UserEvents {
  private readonly ids = new Map<string, number>();
  /** Event names by id. */
  readonly names: string[] = [];
  /** Per rank, per event id: statistics (undefined where never triggered). */
  readonly stats: Array<Array<UserEventStats | undefined>>;

  constructor(ranks: number) {
    this.stats = Array.from({ length: ranks }, () => []);
  }

  /** The id of event `name`, created on first use. */
  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }

  /** Records one occurrence of event `id` on `rank` with `value`. */
  trigger(rank: number, id: number, value: number): void {
    const row = this.stats[rank];
    const s = row[id];
    if (s === undefined) row[id] = { count: 1, min: value, max: value, sum: value, sumSqr: value * value };
    else {
      s.count++;
      if (value < s.min) s.min = value;
      if (value > s.max) s.max = value;
      s.sum += value;
      s.sumSqr += value * value;
    }
  }
}
