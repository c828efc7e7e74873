/** Why a search stopped before it proved its tree optimal. */
export type StopReason = 'time' | 'memory';

/** Thrown inside the search to unwind it when the time limit or the memory bound is reached. */
export class StopSearch extends Error {
  constructor(readonly reason: StopReason) {
    super(`optimal search stopped (${reason})`);
  }
}
