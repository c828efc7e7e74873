/**
 * The Parquet decoder's two ways of giving up: the file is damaged (a {@link ParquetCorrupt}, which
 * the reader reports as a GroveError naming the file), or it uses something this decoder does not
 * read (a {@link ParquetUnsupported}: the caller reads the file another way).
 *
 * PURE: no Node imports.
 */

/** The bytes contradict the format: cut short, an offset outside the file, a value out of range. */
export class ParquetCorrupt extends Error {
  override readonly name = 'ParquetCorrupt';
}

/** A valid file using a feature this decoder leaves to another reader (a codec, an encoding, a type). */
export class ParquetUnsupported extends Error {
  override readonly name = 'ParquetUnsupported';
}

/** Throw {@link ParquetCorrupt} with `message` unless `ok`. */
export function check(ok: boolean, message: string): asserts ok {
  if (!ok) throw new ParquetCorrupt(message);
}
