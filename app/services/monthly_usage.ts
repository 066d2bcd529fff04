/*
| Monthly counters (chats, AI calls): one row per workspace and month, named by the month in
| UTC, grown by conditional updates whose changed-row count says whether a place was taken.
*/

/** The month a usage row counts, `YYYY-MM` in UTC. */
export function usagePeriod(now: Date) {
  return now.toISOString().slice(0, 7)
}

/** Rows an update changed, as each driver reports it (a number, or an array with it first). */
export function changedRows(result: unknown) {
  return Number(Array.isArray(result) ? result[0] : result) || 0
}
