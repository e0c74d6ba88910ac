// Checks of what a store file holds, written by hand: the store's read path is on the start
// of every inspection command, and a schema library costs more to load than the command
// itself (bench:cli). Each check answers the value (objects with their known keys only) or
// throws `Mismatch` naming where the value is wrong and what was expected there.

type Path = readonly (string | number)[];

// The path is built on the way out of a mismatch, so a value that passes allocates none.
class Mismatch extends Error {
  readonly path: (string | number)[] = [];
}

/** `check` of an entry of a list or object, a mismatch in it named by `key`. */
function inside<T>(key: string | number, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof Mismatch) error.path.unshift(key);
    throw error;
  }
}

type Issue = { readonly path: Path; readonly message: string };
type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

/** A check of one value; `parse` throws on a mismatch, `safeParse` answers it. */
export interface Schema<T> {
  check(value: unknown): T;
  parse(value: unknown): T;
  safeParse(value: unknown): Parsed<T>;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function schema<T>(check: (value: unknown) => T): Schema<T> {
  return {
    check,
    parse: (value) => check(value),
    safeParse: (value) => {
      try {
        return { success: true, data: check(value) };
      } catch (error) {
        if (!(error instanceof Mismatch)) throw error;
        return { success: false, error: { issues: [{ path: error.path, message: error.message }] } };
      }
    },
  };
}

function expected(what: string, value: unknown): never {
  throw new Mismatch(`Invalid input: expected ${what}, received ${describe(value)}`);
}

export const text = schema((value) => (typeof value === 'string' ? value : expected('string', value)));

export const bool = schema((value) => (typeof value === 'boolean' ? value : expected('boolean', value)));

/** A whole number from `min` to `max`. */
export function whole(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Schema<number> {
  return schema((value) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return expected('int', value);
    if (value < min) throw new Mismatch(`Too small: expected number to be >=${min}`);
    if (value > max) throw new Mismatch(`Too big: expected number to be <=${max}`);
    return value;
  });
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return schema((value) => (value === null ? null : inner.check(value)));
}

export function optional<T>(inner: Schema<T>): Schema<T | undefined> {
  return schema((value) => (value === undefined ? undefined : inner.check(value)));
}

/** `inner`, or `fallback` where the value is absent (a file written before the field existed). */
export function withDefault<T>(inner: Schema<T>, fallback: T): Schema<T> {
  return schema((value) => (value === undefined ? fallback : inner.check(value)));
}

export function oneOf<const T extends string>(options: readonly T[]): Schema<T> {
  return schema((value) => {
    if (options.includes(value as T)) return value as T;
    throw new Mismatch(`Invalid option: expected one of ${options.map((option) => `"${option}"`).join('|')}`);
  });
}

export function list<T>(item: Schema<T>): Schema<T[]> {
  return schema((value) => {
    if (!Array.isArray(value)) return expected('array', value);
    const out: T[] = new Array(value.length);
    let index = 0;
    try {
      for (; index < value.length; index++) out[index] = item.check(value[index]);
    } catch (error) {
      if (error instanceof Mismatch) error.path.unshift(index);
      throw error;
    }
    return out;
  });
}

type Shape = Record<string, Schema<unknown>>;
type Out<S extends Shape> = { [K in keyof S]: S[K] extends Schema<infer T> ? T : never };
// Keys whose check allows `undefined` may be left out.
type Optional<S extends Shape> = { [K in keyof S]: undefined extends Out<S>[K] ? K : never }[keyof S];
export type Infer<S extends Shape> = { [K in Exclude<keyof S, Optional<S>>]: Out<S>[K] } & {
  [K in Optional<S>]?: Exclude<Out<S>[K], undefined>;
};

/** An object with these keys checked (others are dropped; absent optional ones left out). */
export function record<S extends Shape>(shape: S): Schema<Infer<S>> {
  const keys = Object.keys(shape);
  return schema((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return expected('object', value);
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const checked = inside(key, () =>
        (shape[key] as Schema<unknown>).check((value as Record<string, unknown>)[key]),
      );
      if (checked !== undefined) out[key] = checked;
    }
    return out as Infer<S>;
  });
}
