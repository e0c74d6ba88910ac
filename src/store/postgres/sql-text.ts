// SQL sent as text with its values written in (a text of several statements takes no parameters).

type Value = string | number | null | readonly string[];

/**
 * `text` with each `$n` replaced by `values[n - 1]` as a literal, so that the statement can go
 * in one text with the COMMIT after it (a text of two statements takes no parameters). Strings
 * are dollar-quoted with a tag they do not hold, so nothing in them is read as SQL.
 */
export function inlined(text: string, values: readonly Value[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => literal(values[Number(index) - 1] ?? null));
}

export function literal(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`Not a whole number for SQL: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return quoted(value);
  // An array of text, as PostgreSQL's array literal: each element double-quoted and escaped.
  return quoted(`{${value.map((item) => `"${item.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`);
}

function quoted(text: string): string {
  let tag = '$q$';
  for (let n = 0; text.includes(tag); n++) tag = `$q${n}$`;
  return `${tag}${text}${tag}`;
}
