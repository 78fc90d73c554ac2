// How a filter describes itself in a log line, a REPL or JSON: the values of
// its getters (size, load, bits per item, rates, params), read when asked.
// One way for every class: the getters it defines are its facts, so a new
// getter shows up without a list to keep.

/** Node's `util.inspect.custom` (also honoured by Bun and Deno), without importing node:util. */
export const inspectCustom: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/** A value as JSON keeps it: a bigint as its decimal string, an object field by field. */
export type Plain<T> = T extends bigint ? string : T extends object ? { readonly [K in keyof T]: Plain<T[K]> } : T;

/**
 * What `toJSON()` returns for a live filter of class `F`: the value of each of
 * its getters, as {@link Plain} values.
 */
export type Facts<F> = {
  readonly [K in keyof F as K extends 'disposed' ? never : F[K] extends (...args: never[]) => unknown ? never : K]: Plain<F[K]>;
};

/** Util.inspect's own inspect, which Node passes to a custom inspection. */
export type Inspect = (value: unknown, options?: object) => string;

const plain = (value: unknown): unknown =>
  typeof value === 'bigint'
    ? `${value}`
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([key, field]) => [key, plain(field)]))
      : value;

/**
 * The values of the getters that the classes of `object` define below `base`
 * (whose own getters, such as `disposed`, are not facts), as JSON keeps them.
 */
export function gettersBelow(object: object, base: object): Record<string, unknown> {
  const facts: Record<string, unknown> = {};
  for (let proto = Object.getPrototypeOf(object); proto !== base; proto = Object.getPrototypeOf(proto)) {
    for (const [name, { get }] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (get) facts[name] = plain((object as Record<string, unknown>)[name]);
    }
  }
  return facts;
}

/**
 * `<className> <facts>`: through Node's `inspect` when given (indented and
 * coloured as the rest of the log line), else as JSON on one line.
 */
export function described(className: string, facts: object, options?: object, inspect?: Inspect): string {
  return `${className} ${inspect ? inspect(facts, options) : JSON.stringify(facts)}`;
}
