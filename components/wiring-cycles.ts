import type { ConnectionConfig } from "./assembly.js";

/** A cycle of connections: the index of the connection that closes it, and the connections in call order. */
export interface WiringCycle {
  /** Index (in the assembly's `connections`) of the last connection of the cycle found. */
  readonly closing: number;
  /** The cycle's connections, in call order, as `user.usesPort -> provider.providesPort`. */
  readonly path: readonly string[];
}

/**
 * The first cycle among an assembly's connections, or undefined when the wiring is acyclic. A
 * connection `A.b -> B.work` lets A call B; a cycle lets a component call itself through its own
 * providers, and the library's components make their calls on every invocation, so such an
 * assembly recurses without end. Connections are visited in their order, so the cycle reported
 * is deterministic.
 */
export function findWiringCycle(connections: readonly ConnectionConfig[]): WiringCycle | undefined {
  const out = new Map<string, number[]>();
  connections.forEach((c, i) => {
    const list = out.get(c.user);
    if (list) list.push(i);
    else out.set(c.user, [i]);
  });
  const state = new Map<string, "open" | "done">();
  const stack: number[] = [];
  const visit = (component: string): WiringCycle | undefined => {
    state.set(component, "open");
    for (const i of out.get(component) ?? []) {
      const next = connections[i].provider;
      stack.push(i);
      if (state.get(next) === "open") {
        const from = stack.findIndex((j) => connections[j].user === next);
        const cycle = stack.slice(from);
        return { closing: i, path: cycle.map((j) => describe(connections[j])) };
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
      stack.pop();
    }
    state.set(component, "done");
    return undefined;
  };
  for (const c of connections) {
    if (state.has(c.user)) continue;
    const found = visit(c.user);
    if (found) return found;
  }
  return undefined;
}

function describe(c: ConnectionConfig): string {
  return `${c.user}.${c.usesPort} -> ${c.provider}.${c.providesPort}`;
}
