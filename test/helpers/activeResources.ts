/** Counts of the active handles and requests node reports (sockets, timers, …), by type. */
export function activeCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** Whether any type of resource is more numerous now than before: something was left behind. */
export function grew(before: Record<string, number>, after: Record<string, number>): boolean {
  return Object.entries(after).some(([type, count]) => count > (before[type] ?? 0));
}
