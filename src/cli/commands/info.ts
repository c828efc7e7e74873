import type { Command } from 'commander';
import { escapeControl } from '../../core/errors.js';
import { maxOf } from '../../core/extent.js';
import type { ClassLabel, Dataset } from '../../data/dataset.js';
import { openRows, openSource } from '../../sources/index.js';
import { emit } from '../output.js';
import {
  addColumnFlags,
  addSourceFlags,
  type ColumnFlags,
  columnReadOptions,
  FLOAT32_HELP,
  type SourceFlags,
} from '../read-flags.js';
import { readData } from '../read-progress.js';
import { DATA_HELP } from './fit.js';

/** One column as `grove info` reports it. */
interface ColumnInfo {
  name: string;
  kind: 'numeric' | 'categorical' | 'target';
  missing: number;
  categories?: number;
}

export interface SourceInfo {
  source: string;
  format: string;
  rows: number;
  columns: ColumnInfo[];
  target: string;
  classes: Array<{ label: ClassLabel; rows: number }>;
  /** Bytes of the typed arrays and dictionaries grove holds for the data set. */
  bytes: number;
  readSeconds: number;
}

/** The figures `grove info` shows, from a read Dataset. */
export function describeData(data: Dataset, source: string, format: string, readSeconds: number): SourceInfo {
  let bytes = data.labels.byteLength + (data.weights?.byteLength ?? 0);
  const columns: ColumnInfo[] = data.features.map((f) => {
    let missing = 0;
    if (f.kind === 'numeric') {
      bytes += f.values.byteLength;
      for (let i = 0; i < f.values.length; i++) if (Number.isNaN(f.values[i])) missing++;
      return { name: f.name, kind: 'numeric', missing };
    }
    bytes += f.codes.byteLength;
    for (const c of f.categories) bytes += 2 * c.length;
    for (let i = 0; i < f.codes.length; i++) if (f.codes[i] < 0) missing++;
    return { name: f.name, kind: 'categorical', missing, categories: f.categories.length };
  });
  columns.push({ name: data.targetName, kind: 'target', missing: 0, categories: data.classes.length });
  const counts = new Float64Array(data.classes.length);
  for (let i = 0; i < data.nRows; i++) counts[data.labels[i]]++;
  return {
    source,
    format,
    rows: data.nRows,
    columns,
    target: data.targetName,
    classes: data.classes.map((label, c) => ({ label, rows: counts[c] })),
    bytes,
    readSeconds,
  };
}

function formatBytes(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** The text of `grove info`: names, labels and the source as the data has them, with control characters escaped. */
function renderInfo(info: SourceInfo): string {
  const features = info.columns.filter((c) => c.kind !== 'target');
  const numeric = features.filter((c) => c.kind === 'numeric').length;
  const target = escapeControl(info.target);
  const lines = [
    `${escapeControl(info.format)}: ${info.rows} rows, ${features.length} features (${numeric} numeric, ${features.length - numeric} categorical), target '${target}'`,
    '',
  ];
  const names = info.columns.map((c) => escapeControl(c.name));
  const width = maxOf(
    names.map((name) => name.length),
    6,
  );
  lines.push(`${'column'.padEnd(width)}  ${'kind'.padEnd(11)}  ${'missing'.padStart(9)}  categories`);
  info.columns.forEach((c, j) => {
    lines.push(
      `${names[j].padEnd(width)}  ${c.kind.padEnd(11)}  ${String(c.missing).padStart(9)}  ${c.categories ?? ''}`.trimEnd(),
    );
  });
  lines.push('', `classes of '${target}':`);
  const labels = info.classes.map((c) => escapeControl(String(c.label)));
  const labelWidth = maxOf(
    labels.map((label) => label.length),
    1,
  );
  info.classes.forEach((c, k) => {
    lines.push(
      `  ${labels[k].padEnd(labelWidth)}  ${String(c.rows).padStart(9)}  ${((100 * c.rows) / info.rows).toFixed(1)}%`,
    );
  });
  lines.push('', `in memory: ${formatBytes(info.bytes)}; read in ${info.readSeconds.toFixed(2)} s`);
  return `${lines.join('\n')}\n`;
}

export function registerInfo(program: Command): void {
  addSourceFlags(
    addColumnFlags(
      program
        .command('info')
        .description(
          'read a data source and describe it: rows, columns and their kinds, missing values, classes, memory',
        )
        .argument('<data>', DATA_HELP),
    ),
    'read',
  )
    .option('--float32', FLOAT32_HELP)
    .option('--json', 'machine-readable output')
    .action(async (spec: string, flags: ColumnFlags & SourceFlags & { float32?: boolean; json?: boolean }) => {
      const source = openRows(spec, flags, openSource);
      const started = performance.now();
      const data = await readData(source, { ...columnReadOptions(flags), float32: flags.float32 }, flags.progress);
      const info = describeData(data, source.spec, source.describe(), (performance.now() - started) / 1000);
      emit(flags.json ? `${JSON.stringify(info)}\n` : renderInfo(info));
    });
}
