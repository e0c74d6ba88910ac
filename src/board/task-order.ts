function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Id order: ids compare as sequences of characters and whole numbers, so `task-2` comes
 * before `task-10`. Ids equal but for leading zeros fall back to plain string order, which
 * keeps this a strict total order (the task list is searched by it).
 */
export function compareIds(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (!isDigit(ca) || !isDigit(cb)) {
      if (ca !== cb) return ca - cb;
      i++;
      j++;
      continue;
    }
    // Two runs of digits: compare their values (no leading zeros: longer is larger).
    while (i < a.length && a.charCodeAt(i) === 48) i++;
    while (j < b.length && b.charCodeAt(j) === 48) j++;
    let endA = i;
    let endB = j;
    while (endA < a.length && isDigit(a.charCodeAt(endA))) endA++;
    while (endB < b.length && isDigit(b.charCodeAt(endB))) endB++;
    if (endA - i !== endB - j) return endA - i - (endB - j);
    for (; i < endA; i++, j++) {
      const difference = a.charCodeAt(i) - b.charCodeAt(j);
      if (difference !== 0) return difference;
    }
  }
  const rest = a.length - i - (b.length - j);
  if (rest !== 0) return rest;
  return a < b ? -1 : a > b ? 1 : 0;
}
