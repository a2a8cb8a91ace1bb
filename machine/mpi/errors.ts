import { DeadlockError, type BlockedProcess } from "../../engine/index.js";

/** A request a blocked rank waits on, for deadlock reports. */
export interface PendingRequest {
  /** `recv` (waits for a message) or `send` (waits for its message to be taken). */
  readonly kind: "recv" | "send";
  /** World rank of the peer; for a receive, -1 means any source. */
  readonly peer: number;
  /** Tag; for a receive, -1 means any tag. */
  readonly tag: number;
  /** Communicator name. */
  readonly comm: string;
  /** Message size or receive buffer size (bytes). */
  readonly bytes: number;
  /** For a send: `eager` or `rendezvous`; for a receive: `posted`. */
  readonly state: string;
}

/** A rank found blocked in an MPI call when the event list ran dry. */
export interface BlockedRank {
  /** World rank. */
  readonly rank: number;
  /** The MPI call it is in (`MPI_Recv()`, `MPI_Allreduce()` ...). */
  readonly call: string;
  /** What it waits for. */
  readonly waitsFor: readonly PendingRequest[];
}

/** A message that was sent but never received. */
export interface UnreceivedMessage {
  /** World rank of the sender. */
  readonly source: number;
  /** World rank of the destination. */
  readonly dest: number;
  readonly tag: number;
  readonly comm: string;
  readonly bytes: number;
  /** `unexpected` (arrived, no matching receive), `in flight` or `rendezvous` (request to send waiting). */
  readonly state: string;
  /** The site its sender gave (`MpiWorld.setSite`, a program model's element), or -1. */
  readonly site: number;
  /** Where the send was made, as the caller placed its site (`at element 'ToRight' (s.yaml:9:7)`). */
  readonly sentAt?: string;
}

/** A receive that was posted and never matched. */
export interface UnmatchedReceive {
  /** World rank that posted it. */
  readonly rank: number;
  /** Source it waits for (world rank, -1 for any). */
  readonly source: number;
  readonly tag: number;
  readonly comm: string;
}

/** One line describing what a blocked rank waits for ("receive from rank 3 with tag 7 on MPI_COMM_WORLD"). */
export function describePending(p: PendingRequest): string {
  if (p.kind === "recv")
    return `receive from ${p.peer < 0 ? "any source" : `rank ${p.peer}`} with ${p.tag < 0 ? "any tag" : `tag ${p.tag}`} on ${p.comm}`;
  return `send of ${p.bytes} bytes to rank ${p.peer} with tag ${p.tag} on ${p.comm} (${p.state})`;
}

/** `messages` with each send placed by `sentAt` where it knows the message's site. */
export function placeSends(messages: readonly UnreceivedMessage[], sentAt: (site: number) => string | undefined): UnreceivedMessage[] {
  return messages.map((m) => {
    const at = m.site >= 0 ? sentAt(m.site) : undefined;
    return at === undefined ? m : { ...m, sentAt: at };
  });
}

function describeUnreceived(m: UnreceivedMessage): string {
  return `rank ${m.source} -> rank ${m.dest} tag ${m.tag} on ${m.comm}, ${m.bytes} bytes${m.sentAt === undefined ? "" : `, sent ${m.sentAt}`} (${m.state})`;
}

/**
 * An MPI deadlock: the event list ran dry while ranks were blocked in MPI calls. Names every
 * blocked rank, the call it is in and what it waits for, plus every message sent but not received.
 * A failure of the simulated program, not of its input (the command exits 1, as for any deadlock).
 */
export class MpiDeadlockError extends DeadlockError {
  constructor(
    time: number,
    blocked: readonly BlockedProcess[],
    readonly ranks: readonly BlockedRank[],
    readonly unreceived: readonly UnreceivedMessage[],
  ) {
    super(time, blocked);
    this.name = "MpiDeadlockError";
    const lines = ranks.slice(0, 16).map((r) => `  rank ${r.rank} in ${r.call} waits for ${r.waitsFor.map(describePending).join(" and ") || "nothing MPI knows of"}`);
    if (ranks.length > 16) lines.push(`  ... and ${ranks.length - 16} more blocked ranks`);
    const un = unreceived.slice(0, 16).map((m) => `  ${describeUnreceived(m)}`);
    if (unreceived.length > 16) un.push(`  ... and ${unreceived.length - 16} more`);
    this.message =
      `MPI deadlock at t=${time} us: ${ranks.length} rank${ranks.length === 1 ? " is" : "s are"} blocked with no event left\n` +
      lines.join("\n") +
      (unreceived.length > 0 ? `\nmessages sent but never received:\n${un.join("\n")}` : "");
  }

  /**
   * The same deadlock with each blocked rank's call placed where the caller knows it was made
   * (`MPI_Recv() in AMRMesh::ghostUpdate()`, `MPI_Recv() at element 'FromRight' (s.yaml:10:7)`):
   * `where` returns the text to append to the call, or undefined to leave it; `sentAt` likewise
   * places each unreceived message's send by its site (see `MpiWorld.setSite`).
   */
  placed(where: (rank: number) => string | undefined, sentAt?: (site: number) => string | undefined): MpiDeadlockError {
    const ranks = this.ranks.map((r) => {
      const at = where(r.rank);
      return at === undefined ? r : { ...r, call: `${r.call} ${at}` };
    });
    return new MpiDeadlockError(this.time, this.blocked, ranks, sentAt === undefined ? this.unreceived : placeSends(this.unreceived, sentAt));
  }
}

/**
 * At finalisation, messages were left unreceived or receives unmatched: a failure of the simulated
 * program, as a deadlock is (the command exits 1).
 */
export class MpiUnreceivedMessagesError extends Error {
  /** See `DeadlockError.isSimulatedFailure`. */
  readonly isSimulatedFailure = true;
  constructor(readonly time: number, readonly unreceived: readonly UnreceivedMessage[], readonly unmatched: readonly UnmatchedReceive[]) {
    const un = unreceived.slice(0, 16).map((m) => `  ${describeUnreceived(m)}`);
    const um = unmatched.slice(0, 16).map((r) => `  rank ${r.rank}: receive from ${r.source < 0 ? "any source" : `rank ${r.source}`} tag ${r.tag < 0 ? "any" : r.tag} on ${r.comm}`);
    super(
      `MPI finalisation at t=${time} us found ${unreceived.length} message(s) never received and ${unmatched.length} receive(s) never matched` +
        (un.length ? `\nmessages never received:\n${un.join("\n")}` : "") +
        (um.length ? `\nreceives never matched:\n${um.join("\n")}` : ""),
    );
    this.name = "MpiUnreceivedMessagesError";
  }
}

/** A program used MPI wrongly (bad rank, tag, size or request handle; message truncated). */
export class MpiUsageError extends Error {
  readonly isInputError = true;
  /**
   * @param matched - for a receive refused when a message meets it (truncated), the message's
   *   source rank and tag: a caller that posted several receives can tell which one it was
   */
  constructor(
    readonly rank: number,
    readonly call: string,
    detail: string,
    readonly matched?: { readonly source: number; readonly tag: number },
  ) {
    super(`rank ${rank}, ${call}: ${detail}`);
    this.name = "MpiUsageError";
  }
}
