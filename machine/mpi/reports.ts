/**
 * What is left over or stuck in an MPI world, for deadlock and finalisation reports. One pass
 * over the request pool each; only called when a run has ended.
 *
 * @internal
 * @packageDocumentation
 */
import type { PendingRequest, UnmatchedReceive, UnreceivedMessage } from "./errors.js";
import { F_COMPLETE, F_MATCHED, F_NET, F_QUEUED, F_RDV, F_WAITED, KIND_RECV, KIND_SEND, NIL } from "./requests.js";
import type { MpiWorld } from "./world.js";

/** Messages sent but never received and receives posted but never matched. */
export function findLeftovers(world: MpiWorld): { unreceived: UnreceivedMessage[]; unmatched: UnmatchedReceive[] } {
  const p = world.pool;
  const unreceived: UnreceivedMessage[] = [];
  const unmatched: UnmatchedReceive[] = [];
  for (let s = 0; s < p.highWater; s++) {
    const k = p.kind(s);
    const f = p.flags(s);
    if (k === KIND_SEND && f & F_NET && p.match(s) === NIL) {
      unreceived.push({
        source: p.owner(s),
        dest: p.peer(s),
        tag: p.tag(s),
        comm: world.contextName(p.ctx(s)),
        bytes: p.bytes(s),
        state: f & F_QUEUED ? (f & F_RDV ? "rendezvous request waiting for a receive" : "unexpected, no matching receive") : "in flight",
        site: world.siteOfSend(s),
      });
    } else if (k === KIND_RECV && f & F_QUEUED) {
      unmatched.push({ rank: p.owner(s), source: p.peer(s), tag: p.tag(s), comm: world.contextName(p.ctx(s)) });
    }
  }
  // Listed in a canonical order, not by storage slot, so reports do not depend on how slots were reused.
  unreceived.sort((a, b) => a.source - b.source || a.dest - b.dest || cmp(a.comm, b.comm) || a.tag - b.tag || a.bytes - b.bytes || cmp(a.state, b.state) || a.site - b.site);
  unmatched.sort((a, b) => a.rank - b.rank || a.source - b.source || cmp(a.comm, b.comm) || a.tag - b.tag);
  return { unreceived, unmatched };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Requests that ranks wait on and that have not completed, grouped by owner rank. */
export function pendingRequestsByRank(world: MpiWorld): Map<number, PendingRequest[]> {
  const p = world.pool;
  const m = new Map<number, PendingRequest[]>();
  for (let s = 0; s < p.highWater; s++) {
    const f = p.flags(s);
    if (p.kind(s) === 0 || (f & F_WAITED) === 0 || f & F_COMPLETE) continue;
    const send = p.kind(s) === KIND_SEND;
    const req: PendingRequest = {
      kind: send ? "send" : "recv",
      peer: p.peer(s),
      tag: p.tag(s),
      comm: world.contextName(p.ctx(s)),
      bytes: p.bytes(s),
      state: send
        ? f & F_RDV
          ? p.match(s) === NIL
            ? "rendezvous: waiting for the receiver to post a matching receive"
            : "rendezvous: transfer under way"
          : "eager"
        : f & F_MATCHED
          ? "matched, data under way"
          : "posted",
    };
    const owner = p.owner(s);
    const list = m.get(owner);
    if (list) list.push(req);
    else m.set(owner, [req]);
  }
  // Receives first, then sends, each by peer and tag: a canonical order, not the storage slots'.
  for (const list of m.values()) list.sort((a, b) => cmp(a.kind, b.kind) || a.peer - b.peer || cmp(a.comm, b.comm) || a.tag - b.tag || a.bytes - b.bytes || cmp(a.state, b.state));
  return m;
}
