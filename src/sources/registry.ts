import { GroveError } from '../core/errors.js';
import { NamedRegistry } from '../core/registry.js';
import { fileSource } from './file-source.js';
import { fileDatasetName } from './formats.js';
import type { DataSource, SourceKind } from './source.js';

const kinds = new NamedRegistry<SourceKind>({
  register: 'registerSourceKind',
  noun: 'source kind',
  unknown: 'source kind',
});

/**
 * Add a kind of source (e.g. `duckdb:PATH?table=…`, `postgres://…`). Kinds are asked in
 * registration order, the file formats last, so a scheme-based kind wins over the file fallback.
 */
export function registerSourceKind(kind: SourceKind, options: { replace?: boolean } = {}): void {
  kinds.add(kind, options.replace === true, (k, prefix) => {
    if (typeof k.matches !== 'function' || typeof k.open !== 'function')
      throw new GroveError(`${prefix} needs matches(spec) and open(spec)`);
  });
}

function kindOf(spec: string): SourceKind | undefined {
  return kinds.list().find((k) => k.matches(spec));
}

/** True when a registered kind (not the file fallback) claims `spec`, e.g. `postgres://…`. */
export function isKindSpec(spec: string): boolean {
  return kindOf(spec) !== undefined;
}

/** Open a source by its spec: a registered kind that claims it, else a file read by its extension. */
export function openSource(spec: string): DataSource {
  return kindOf(spec)?.open(spec) ?? fileSource(spec);
}

/** The name a source's data set goes by (in `compare` results): a file's name without extensions. */
export function sourceName(spec: string): string {
  const kind = kindOf(spec);
  return kind?.datasetName ? kind.datasetName(spec) : fileDatasetName(spec);
}
