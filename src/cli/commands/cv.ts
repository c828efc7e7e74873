import type { Command } from 'commander';
import { escapeControl } from '../../core/errors.js';
import { textTable } from '../../core/text-table.js';
import type { ClassLabel, Dataset } from '../../data/dataset.js';
import {
  crossValidateRepeated,
  pooledConfusion,
  type RepeatedFoldResult,
  summarize,
} from '../../eval/cross-validate.js';
import type { FitOptions } from '../../options/options.js';
import { openRows, openSource } from '../../sources/index.js';
import { intOption } from '../args.js';
import { emit } from '../output.js';
import { addSourceFlags, columnReadOptions } from '../read-flags.js';
import { readLabelled } from '../read-labelled.js';
import { countText, type TtyProgressOptions, ttyProgress } from '../tty-progress.js';
import { addTrainingFlags, checkedFitOptions, DATA_HELP, type TrainingFlags } from './fit.js';

interface CvFlags extends TrainingFlags {
  folds: number;
  repeats: number;
  foldSeed: number;
  json?: boolean;
}

const f4 = (x: number): string => x.toFixed(4);

/** `mean ± sd` of one figure over the folds. */
function meanSd(folds: readonly RepeatedFoldResult[], pick: (f: RepeatedFoldResult) => number, digits = 4): string {
  const s = summarize(folds.map(pick));
  return `${s.mean.toFixed(digits)} ± ${s.sd.toFixed(digits)}`;
}

/** The test rows of every fold counted by actual (row) and predicted class (column), with the labels. */
function pooled(folds: readonly RepeatedFoldResult[], classes: readonly ClassLabel[]) {
  return { labels: classes.slice(), matrix: pooledConfusion(folds, classes.length) ?? [] };
}

function confusionText({ labels, matrix }: ReturnType<typeof pooled>): string[] {
  return [
    'confusion matrix of the test rows over every fold (rows: actual class, columns: predicted class)',
    ...textTable(
      ['', ...labels.map((l) => escapeControl(String(l)))],
      matrix.map((row, a) => [escapeControl(String(labels[a])), ...row.map(String)]),
    ),
  ];
}

function cvText(folds: readonly RepeatedFoldResult[], repeats: number): string[] {
  // The repeat column only when there is more than one repeat.
  const first = (cells: string[]): string[] => (repeats > 1 ? cells : cells.slice(1));
  const table = textTable(
    first(['repeat', 'fold', 'train rows', 'test rows', 'test accuracy', 'train accuracy', 'leaves', 'height']),
    folds.map((f) =>
      first([
        String(f.repeat + 1),
        String(f.fold + 1),
        String(f.trainRows),
        String(f.testRows),
        f4(f.testAccuracy),
        f4(f.trainAccuracy),
        String(f.leaves),
        String(f.height),
      ]),
    ),
    ['right'],
  );
  return [
    ...table,
    '',
    `test accuracy   ${meanSd(folds, (f) => f.testAccuracy)}  (mean ± sd over ${folds.length} folds)`,
    `train accuracy  ${meanSd(folds, (f) => f.trainAccuracy)}`,
    `leaves          ${meanSd(folds, (f) => f.leaves, 1)}`,
    `height          ${meanSd(folds, (f) => f.height, 1)}`,
  ];
}

export function registerCv(program: Command): void {
  addSourceFlags(
    addTrainingFlags(
      program
        .command('cv')
        .description(
          'cross-validate one configuration (the fit flags) on DATA: per-fold table, mean ± sd; ' +
            'the same stratified folds grove compare uses with the same --folds, --repeats and seed',
        )
        .argument('<data>', DATA_HELP),
      ['split', 'stop', 'data', 'prune', 'cmbsv'],
    ),
    'cross-validate on',
  )
    .option('--folds <k>', 'number of folds', intOption('--folds', 2), 10)
    .option('--repeats <r>', 'repeat with fold seeds s, s+1, … (as grove compare)', intOption('--repeats', 1), 1)
    .option('--fold-seed <s>', "seed of the fold assignment (grove compare's --seed)", intOption('--fold-seed', 0), 1)
    .option('--json', 'machine-readable output: the folds and the summary')
    .action(async (dataPath: string, flags: CvFlags) => {
      const options = checkedFitOptions(flags);
      const data = await readLabelled(
        () => openRows(dataPath, flags, openSource),
        columnReadOptions(flags),
        flags.progress,
        flags.requireLabels,
      );
      const folds = crossValidateShown(
        data,
        options,
        { k: flags.folds, repeats: flags.repeats, seed: flags.foldSeed },
        { show: flags.progress !== false },
      );
      if (flags.json) {
        // Times vary from run to run; the JSON keeps only what the data and options determine.
        const rows = folds.map(({ fitMs: _f, predictMs: _p, ...rest }) => rest);
        const summary = {
          testAccuracy: summarize(folds.map((f) => f.testAccuracy)),
          trainAccuracy: summarize(folds.map((f) => f.trainAccuracy)),
          leaves: summarize(folds.map((f) => f.leaves)),
          height: summarize(folds.map((f) => f.height)),
        };
        const json = { folds: rows, summary, confusion: pooled(folds, data.classes) };
        emit(`${JSON.stringify({ ...json, k: flags.folds, repeats: flags.repeats, seed: flags.foldSeed })}\n`);
        return;
      }
      const text = [...cvText(folds, flags.repeats), '', ...confusionText(pooled(folds, data.classes))];
      emit(`${text.join('\n')}\n`);
    });
}

/** The folds, with folds done of the total and their rate on a terminal. */
export function crossValidateShown(
  data: Dataset,
  options: FitOptions,
  folds: { k: number; repeats: number; seed: number },
  where: TtyProgressOptions,
): RepeatedFoldResult[] {
  const shown = ttyProgress('cross-validating', where);
  const onProgress = ({ done, total }: { done: number; total: number }) =>
    shown.update(done, total, countText(shown, done, total, 'folds'));
  try {
    return crossValidateRepeated(data, options, { ...folds, ...(shown.shown ? { onProgress } : {}) });
  } finally {
    shown.stop();
  }
}
