/**
 * The candidate a mistyped name most likely meant, for a "did you mean": the same letters in
 * another case, else the nearest by edit distance within a budget that grows with the name
 * (1 for up to 4 characters, 2 up to 10, then 3). Shared by the manifest decoder's D01 hints
 * and the scenario's checks.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const sameLetters = candidates.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (sameLetters !== undefined) return sameLetters;
  const budget = name.length <= 4 ? 1 : name.length <= 10 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `did you mean "web"?`, or the names to choose from when none is close. */
export function closestNameHint(name: string, candidates: readonly string[]): string {
  const close = closestName(name, candidates);
  return close !== undefined ? `did you mean "${close}"?` : `expected one of ${candidates.join(', ')}`;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), stopping at `cap`. */
export function editDistance(a: string, b: string, cap = Infinity): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (twoBack[j - 2] as number) + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    twoBack = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
