import { RadixWork } from '../split/node-sort.js';

/**
 * The per-node sorting grower's row-sized scratch arrays, kept for the next tree of the same size
 * on this thread (`takeScratch`, `giveScratch`): a forest's trees each used to allocate some 16 MB
 * of them at 200,000 rows, garbage that piled up between collections beside the grown trees.
 * Every array is written before it is read at each use, so a reused one needs no clearing, except
 * the `zeroed` ones, which their users leave zero after each use (a tree that throws midway is not
 * given back).
 */
export class NodeScratch {
  private readonly arrays = new Map<string, Int32Array | Float64Array | Uint8Array | Uint16Array>();
  private radixWork: RadixWork | undefined;

  int32(name: string, n: number): Int32Array {
    return this.get(name, n, (m) => new Int32Array(m));
  }

  /** As `int32`, all zero: its user leaves it so after each use. */
  zeroed(name: string, n: number): Int32Array {
    return this.int32(name, n);
  }

  float64(name: string, n: number): Float64Array {
    return this.get(name, n, (m) => new Float64Array(m));
  }

  uint8(name: string, n: number): Uint8Array {
    return this.get(name, n, (m) => new Uint8Array(m));
  }

  uint16(name: string, n: number): Uint16Array {
    return this.get(name, n, (m) => new Uint16Array(m));
  }

  radix(n: number): RadixWork {
    if (this.radixWork?.keys.length !== n) this.radixWork = new RadixWork(n);
    return this.radixWork;
  }

  private get<T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(
    name: string,
    n: number,
    make: (n: number) => T,
  ): T {
    const held = this.arrays.get(name) as T | undefined;
    if (held && held.length === n && held.constructor === make(0).constructor) return held;
    const made = make(n);
    this.arrays.set(name, made);
    return made;
  }
}

/** This thread's spare scratch (none while a tree grows with it, or when not `keeping`). */
let spare: NodeScratch | undefined;
/** Whether a grown tree's scratch is kept for the next (a forest's fit, `keepScratch`). */
let keeping = false;

/** Keep each tree's scratch for the next one on this thread until `dropScratch`. */
export function keepScratch(): void {
  keeping = true;
}

/** The spare scratch, or a new one; give it back with `giveScratch` when the tree is grown. */
export function takeScratch(): NodeScratch {
  const s = spare ?? new NodeScratch();
  spare = undefined;
  return s;
}

/** Keep `scratch` for the next tree grown on this thread, while `keeping`. */
export function giveScratch(scratch: NodeScratch): void {
  if (keeping) spare = scratch;
}

/** Let the spare scratch go and keep none from now on (a forest's fit is done). */
export function dropScratch(): void {
  keeping = false;
  spare = undefined;
}
