/** Group of MPI timers, as TAU names it. */
export const MPI_GROUP = "MPI";
/** Group of component method timers. */
export const COMPONENT_GROUP = "CCA_COMPONENT";
/** TAU's default group. */
export const DEFAULT_GROUP = "TAU_DEFAULT";
/** The root timer every TAU profile starts with. */
export const APPLICATION_TIMER = ".TAU application";

/**
 * Timer names and groups, shared by all ranks: a timer has one id everywhere, so per-rank data
 * can be kept in arrays indexed by timer id.
 */
export class TimerTable {
  private readonly ids = new Map<string, number>();
  /** Names by id. */
  readonly names: string[] = [];
  /** Group list (`"A|B"` as TAU writes it) by id. */
  readonly groups: string[] = [];

  /** The id of timer `name`, creating it in `group` on first use. */
  id(name: string, group: string = DEFAULT_GROUP): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
      this.groups.push(group);
    }
    return id;
  }

  /** The id of an existing timer, or undefined. */
  find(name: string): number | undefined {
    return this.ids.get(name);
  }

  get size(): number {
    return this.names.length;
  }
}
