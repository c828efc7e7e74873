import type { Command } from 'commander';
import { escapeControl, GroveError } from '../../core/errors.js';
import { type Align, counted, textTable } from '../../core/text-table.js';
import type { ClassLabel, Dataset } from '../../data/dataset.js';
import {
  type ColumnSummary,
  classCounts,
  continuousTarget,
  type IdLikeColumn,
  idLikeColumns,
  summarizeColumn,
} from '../../data/describe.js';
import { labelFromColumn } from '../../data/label-column.js';
import { timeText, timeUnitText } from '../../data/time-units.js';
import { openRows, openSource, type SourceReadOptions } from '../../sources/index.js';
import { emit } from '../output.js';
import {
  addColumnFlags,
  addSourceFlags,
  type ColumnFlags,
  columnReadOptions,
  FLOAT32_HELP,
  keepingColumn,
  type SourceFlags,
} from '../read-flags.js';
import { isUnlabelledError } from '../read-labelled.js';
import { readData } from '../read-progress.js';
import { DATA_HELP } from './fit.js';

/** One column as `grove info` reports it: the target's kind is `target`. */
interface ColumnInfo extends Omit<ColumnSummary, 'kind' | 'bytes'> {
  kind: ColumnSummary['kind'] | 'target';
}

export interface SourceInfo {
  source: string;
  format: string;
  rows: number;
  columns: ColumnInfo[];
  /** The class column, when it is usable. */
  target?: string;
  classes?: Array<{ label: ClassLabel; rows: number }>;
  /** Rows whose class label is missing (fit leaves them out). */
  unlabelled?: number;
  /** Why there is no class distribution (the target column cannot be read as class labels). */
  targetProblem?: string;
  /** Why the target looks like a continuous quantity. */
  continuousTarget?: string;
  /** Features that look like row identifiers, and why. */
  idLike?: IdLikeColumn[];
  /** Bytes of the typed arrays and dictionaries grove holds for the data set. */
  bytes: number;
  readSeconds: number;
}

/** The table's columns, the target's distribution and why it is not usable, as `grove info` shows them. */
function describe(
  table: Dataset,
  labelled: { data: Dataset; unlabelled: number } | undefined,
  targetProblem: string | undefined,
): Omit<SourceInfo, 'source' | 'format' | 'readSeconds'> {
  const summaries = table.features.map(summarizeColumn);
  let bytes = summaries.reduce((a, s) => a + s.bytes, table.weights?.byteLength ?? 0);
  const columns: ColumnInfo[] = summaries.map(({ bytes: _b, ...s }) => s);
  const out: Omit<SourceInfo, 'source' | 'format' | 'readSeconds'> = { rows: table.nRows, columns, bytes };
  if (labelled) {
    const { data, unlabelled } = labelled;
    const at = columns.findIndex((c) => c.name === data.targetName);
    const target: ColumnInfo = {
      name: data.targetName,
      kind: 'target',
      missing: unlabelled,
      distinct: data.classes.length,
      categories: data.classes.length,
    };
    if (at >= 0) columns[at] = target;
    else {
      columns.push(target);
      bytes += data.labels.byteLength;
    }
    out.bytes = bytes;
    out.target = data.targetName;
    out.classes = classCounts(data);
    out.unlabelled = unlabelled;
    const continuous = continuousTarget(data);
    if (continuous) out.continuousTarget = continuous;
  }
  if (targetProblem !== undefined) out.targetProblem = targetProblem;
  const idLike = idLikeColumns(table).filter((c) => c.name !== out.target);
  if (idLike.length > 0) out.idLike = idLike;
  return out;
}

/** A number as `grove info` shows it: 6 significant digits. */
const shown = (x: number): string => String(Number(x.toPrecision(6)));

function formatBytes(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** A column's range: its numbers, and for dates and times the unit and the dates they are. */
function rangeText(c: ColumnInfo): string {
  if (c.min === undefined || c.max === undefined) return '';
  const range = `${shown(c.min)} … ${shown(c.max)}`;
  if (c.unit === undefined) return range;
  return `${range} ${timeUnitText(c.unit)} (${timeText(c.min, c.unit)} … ${timeText(c.max, c.unit)})`;
}

/** The text of `grove info`: names, labels and the source as the data has them, with control characters escaped. */
function renderInfo(info: SourceInfo): string {
  const features = info.columns.filter((c) => c.kind !== 'target');
  const numeric = features.filter((c) => c.kind === 'numeric').length;
  const target = info.target !== undefined ? `target '${escapeControl(info.target)}'` : 'no usable target';
  const lines = [
    `${escapeControl(info.format)}: ${counted(info.rows, 'row')}, ${counted(features.length, 'feature')} ` +
      `(${numeric} numeric, ${features.length - numeric} categorical), ${target}`,
    '',
  ];
  const align: Align[] = ['left', 'left', 'right', 'right', 'left'];
  lines.push(
    ...textTable(
      ['column', 'kind', 'missing', 'distinct', 'range'],
      info.columns.map((c) => [c.name, c.kind, String(c.missing), String(c.distinct), rangeText(c)]),
      align,
    ),
  );
  lines.push('');
  if (info.classes && info.target !== undefined) {
    lines.push(`classes of '${escapeControl(info.target)}':`);
    const labelled = info.rows - (info.unlabelled ?? 0);
    const table = textTable(
      ['', '', ''],
      info.classes.map((c) => [String(c.label), String(c.rows), `${((100 * c.rows) / labelled).toFixed(1)}%`]),
    ).slice(1);
    lines.push(...table.map((l) => `  ${l}`));
    if (info.unlabelled)
      lines.push(
        `rows without a class label: ${info.unlabelled} ` +
          '(grove fit leaves them out; --require-labels makes them an error)',
      );
    if (info.continuousTarget) lines.push(`note: ${escapeControl(info.continuousTarget)}`);
  } else lines.push(`no class distribution: ${escapeControl(info.targetProblem ?? 'no target column')}`);
  for (const { name, reason } of info.idLike ?? [])
    lines.push(
      `note: '${escapeControl(name)}' looks like a row identifier (${reason}); ` +
        `--drop ${escapeControl(name)} leaves it out`,
    );
  lines.push('', `in memory: ${formatBytes(info.bytes)}; read in ${info.readSeconds.toFixed(2)} s`);
  return `${lines.join('\n')}\n`;
}

type InfoFlags = ColumnFlags & SourceFlags & { float32?: boolean; json?: boolean };

export function registerInfo(program: Command): void {
  addSourceFlags(
    addColumnFlags(
      program
        .command('info')
        .description(
          'describe any table grove can read: every column (kind, missing, distinct values, range), the class ' +
            'distribution when the target column is usable (else why not), rows without a label, memory',
        )
        .argument('<data>', DATA_HELP),
    ),
    'read',
  )
    .option('--float32', FLOAT32_HELP)
    .option('--json', 'machine-readable output')
    .action(async (spec: string, flags: InfoFlags) => {
      const started = performance.now();
      let source = openRows(spec, flags, openSource);
      const read = (more: SourceReadOptions) =>
        readData(
          (source = openRows(spec, flags, openSource)),
          { ...columnReadOptions(flags), float32: flags.float32, ...more },
          flags.progress,
        );
      let figures: ReturnType<typeof describe>;
      try {
        const data = await readData(source, { ...columnReadOptions(flags), float32: flags.float32 }, flags.progress);
        figures = describe(data, { data, unlabelled: 0 }, undefined);
      } catch (err) {
        if (!(err instanceof GroveError)) throw err;
        if (isUnlabelledError(err)) {
          // Every column with all its rows; the classes from the labelled rows.
          const table = await read(
            keepingColumn(
              { noTarget: true, categorical: [...(flags.categorical ?? []), err.column], features: flags.features },
              err.column,
            ),
          );
          figures = describe(table, labelFromColumn(table, err.column), undefined);
        } else {
          // The table may still be readable as columns without a class: describe them, say why.
          let table: Dataset;
          try {
            table = await read({ noTarget: true });
          } catch {
            throw err;
          }
          figures = describe(table, undefined, err.message);
        }
      }
      const info: SourceInfo = {
        source: source.spec,
        format: source.describe(),
        ...figures,
        readSeconds: (performance.now() - started) / 1000,
      };
      emit(flags.json ? `${JSON.stringify(info)}\n` : renderInfo(info));
    });
}
