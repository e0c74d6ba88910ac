// PostgreSQL's text cannot hold U+0000, and jsonb refuses a lone surrogate (half of a UTF-16
// pair) as well: a JavaScript string may hold either, and so may a model's reply or a tool's
// input, which the other stores keep as they are. So every string (and object key) this
// store writes as JSON is encoded, and decoded as it is read: U+0000, each lone surrogate and
// the escape character itself are written as the escape character followed by the code unit
// in four hex digits. The escape character is U+FFFF, a noncharacter, which Unicode sets
// aside for a program's own use; text almost never holds it, and when it does it is escaped
// too, so every encoded string decodes to exactly the string that was written.

const ESCAPE = '\uFFFF';
// U+0000, U+FFFF, a high surrogate not followed by a low one, a low one not preceded by a high one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what PostgreSQL cannot hold.
const ENCODED = /[\u0000\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ENCODED_ALL = new RegExp(ENCODED.source, 'g');
const ESCAPED_ALL = /\uFFFF([0-9a-f]{4})/g;

function encodeText(text: string): string {
  if (!ENCODED.test(text)) return text;
  return text.replace(ENCODED_ALL, (unit) => `${ESCAPE}${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function decodeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(ESCAPED_ALL, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` as JSON text PostgreSQL keeps whole: every string and key encoded. */
export function storedJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string') return encodeText(item);
    if (!isRecord(item) || !Object.keys(item).some((key) => ENCODED.test(key))) return item;
    // The values are encoded as JSON.stringify goes on into the object returned.
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [encodeText(key), entry]));
  });
}

/** JSON text this store wrote (`storedJson`), parsed and decoded. */
export function parseStoredJson(text: string): unknown {
  // JSON.stringify and PostgreSQL's jsonb output both write U+FFFF as itself: text without it
  // holds nothing encoded.
  if (!text.includes(ESCAPE)) return JSON.parse(text);
  return JSON.parse(text, (_key, item: unknown) => {
    if (typeof item === 'string') return decodeText(item);
    if (!isRecord(item) || !Object.keys(item).some((key) => key.includes(ESCAPE))) return item;
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [decodeText(key), entry]));
  });
}

/** A value as `storedJson` would write it, for JSON another library stores (pg-boss's jobs). */
export function encodedValue<T>(value: T): T {
  return JSON.parse(storedJson(value)) as T;
}

/** A value read back from JSON another library stored (`encodedValue`), decoded. */
export function decodedValue<T>(value: T): T {
  return parseStoredJson(JSON.stringify(value)) as T;
}
