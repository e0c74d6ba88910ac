// Checks of what a store file holds, written by hand: the store's read path is on the start
// of every inspection command, and a schema library costs more to load than the command
// itself (bench:cli). Each check answers the value (objects with their known keys only) or
// throws `Mismatch` naming where the value is wrong and what was expected there.

type Path = readonly (string | number)[];

class Mismatch extends Error {
  constructor(
    readonly path: Path,
    message: string,
  ) {
    super(message);
  }
}

type Issue = { readonly path: Path; readonly message: string };
type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: Issue[] } };

/** A check of one value; `parse` throws on a mismatch, `safeParse` answers it. */
export interface Schema<T> {
  check(value: unknown, path: Path): T;
  parse(value: unknown): T;
  safeParse(value: unknown): Parsed<T>;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function schema<T>(check: (value: unknown, path: Path) => T): Schema<T> {
  return {
    check,
    parse: (value) => check(value, []),
    safeParse: (value) => {
      try {
        return { success: true, data: check(value, []) };
      } catch (error) {
        if (!(error instanceof Mismatch)) throw error;
        return { success: false, error: { issues: [{ path: error.path, message: error.message }] } };
      }
    },
  };
}

function expected(what: string, value: unknown, path: Path): never {
  throw new Mismatch(path, `Invalid input: expected ${what}, received ${describe(value)}`);
}

export const text = schema((value, path) =>
  typeof value === 'string' ? value : expected('string', value, path),
);

export const bool = schema((value, path) =>
  typeof value === 'boolean' ? value : expected('boolean', value, path),
);

/** A whole number from `min` to `max`. */
export function whole(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Schema<number> {
  return schema((value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return expected('int', value, path);
    if (value < min) throw new Mismatch(path, `Too small: expected number to be >=${min}`);
    if (value > max) throw new Mismatch(path, `Too big: expected number to be <=${max}`);
    return value;
  });
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return schema((value, path) => (value === null ? null : inner.check(value, path)));
}

export function optional<T>(inner: Schema<T>): Schema<T | undefined> {
  return schema((value, path) => (value === undefined ? undefined : inner.check(value, path)));
}

export function oneOf<const T extends string>(options: readonly T[]): Schema<T> {
  return schema((value, path) => {
    if (options.includes(value as T)) return value as T;
    throw new Mismatch(
      path,
      `Invalid option: expected one of ${options.map((option) => `"${option}"`).join('|')}`,
    );
  });
}

export function list<T>(item: Schema<T>): Schema<T[]> {
  return schema((value, path) =>
    Array.isArray(value)
      ? value.map((entry, index) => item.check(entry, [...path, index]))
      : expected('array', value, path),
  );
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
  return schema((value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return expected('object', value, path);
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const checked = (shape[key] as Schema<unknown>).check((value as Record<string, unknown>)[key], [
        ...path,
        key,
      ]);
      if (checked !== undefined) out[key] = checked;
    }
    return out as Infer<S>;
  });
}
