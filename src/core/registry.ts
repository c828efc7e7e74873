import { describeType } from './args.js';
import { GroveError } from './errors.js';

/** How a registry names itself in its messages. */
export interface RegistryNames {
  /** The public function that registers (`registerCriterion`). */
  readonly register: string;
  /** What one entry is (`criterion`). */
  readonly noun: string;
  /** What an unknown name was meant to be (`criterion`, `pruning method`). */
  readonly unknown: string;
}

/**
 * A table of named extension entries (criteria, pruners) in registration order: the one place
 * that checks a new entry's name, refuses a taken one unless replacing, and looks names up
 * without touching `Object.prototype`.
 */
export class NamedRegistry<T extends { readonly name: string }> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly names: RegistryNames) {}

  /**
   * Add `entry` after `check` (which throws for a malformed entry, given the error prefix to use).
   * Replacing an entry keeps its position.
   */
  add(entry: T, replace: boolean, check: (entry: T, prefix: string) => void): void {
    const { register, noun } = this.names;
    if (entry === null || typeof entry !== 'object') throw new GroveError(`${register}: expected a ${noun} object`);
    if (typeof entry.name !== 'string' || entry.name.trim() === '') {
      throw new GroveError(`${register}: ${noun} name must be a non-empty string`);
    }
    const prefix = `${register}: ${noun} '${entry.name}'`;
    check(entry, prefix);
    if (this.entries.has(entry.name) && !replace) {
      throw new GroveError(`${prefix} is already registered (pass { replace: true } to replace it)`);
    }
    this.entries.set(entry.name, entry);
  }

  /** The entry registered under `name`; GroveError listing the known names otherwise. */
  get(name: string): T {
    const entry = this.entries.get(name);
    if (entry === undefined) {
      const shown = typeof name === 'string' ? `'${name}'` : describeType(name);
      throw new GroveError(`unknown ${this.names.unknown} ${shown} (known: ${this.keys().join(', ')})`);
    }
    return entry;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every entry, in registration order. */
  list(): T[] {
    return Array.from(this.entries.values());
  }

  /** Every name, in registration order. */
  keys(): string[] {
    return Array.from(this.entries.keys());
  }
}
