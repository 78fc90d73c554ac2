// The items of the Redis benchmark: strings of 20 characters, as the SET
// measurement the issue quotes used ("10^6 keys of ~20 characters").

/** Item i: `event:` and i in 14 digits. */
export const item = (i) => `event:${String(i).padStart(14, '0')}`;

/** Items first .. first + count - 1. */
export function itemsFrom(first, count) {
  return Array.from({ length: count }, (_, k) => item(first + k));
}
