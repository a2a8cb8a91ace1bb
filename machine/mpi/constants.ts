/** Receive from any source (MPI_ANY_SOURCE). */
export const ANY_SOURCE = -1;
/** Receive with any tag (MPI_ANY_TAG). */
export const ANY_TAG = -1;
/** A request handle that refers to nothing (MPI_REQUEST_NULL); completed handles are set to it. */
export const REQUEST_NULL = -1;
/** Largest tag a program may use (MPI guarantees at least 32767). */
export const TAG_UB = 2 ** 30;

/** Names of the MPI calls, as TAU names their timers. */
export const MPI_CALLS = [
  "",
  "MPI_Send()",
  "MPI_Recv()",
  "MPI_Isend()",
  "MPI_Irecv()",
  "MPI_Wait()",
  "MPI_Waitall()",
  "MPI_Waitany()",
  "MPI_Waitsome()",
  "MPI_Test()",
  "MPI_Sendrecv()",
  "MPI_Barrier()",
  "MPI_Bcast()",
  "MPI_Reduce()",
  "MPI_Allreduce()",
  "MPI_Allgather()",
  "MPI_Alltoall()",
] as const;

/** One of {@link MPI_CALLS} (without the empty entry). */
export type MpiCallName = Exclude<(typeof MPI_CALLS)[number], "">;

/** @internal Index of each call name in {@link MPI_CALLS}. */
export const CALL = {
  none: 0,
  send: 1,
  recv: 2,
  isend: 3,
  irecv: 4,
  wait: 5,
  waitall: 6,
  waitany: 7,
  waitsome: 8,
  test: 9,
  sendrecv: 10,
  barrier: 11,
  bcast: 12,
  reduce: 13,
  allreduce: 14,
  allgather: 15,
  alltoall: 16,
} as const;
