import type { Command } from 'commander';
import { GroveError } from '../../core/errors.js';
import { Forest } from '../../ensemble/forest.js';
import { forestToSql } from '../../export/sql/forest.js';
import { treeToSql } from '../../export/sql/query.js';
import { writeFileAtomic } from '../../io/atomic.js';
import { loadAnyModel } from '../../io/model-file.js';
import { refuseOutputOverInput } from '../../io/same-file.js';
import { DIALECT_NAMES as SQL_DIALECTS, type DialectName as SqlDialect } from '../../sql/index.js';
import { choiceOption } from '../args.js';
import { emit, warn } from '../output.js';

const FORMATS = ['onnx', 'sql', 'json'] as const;

interface ExportFlags {
  format: (typeof FORMATS)[number];
  out?: string;
  dialect?: SqlDialect;
  table?: string;
  proba?: boolean;
}

/** Refuse flags that do not apply to the chosen format, before any work. */
function checkFlags(flags: ExportFlags): void {
  if (flags.format === 'json') {
    for (const [flag, given] of [
      ['--dialect', flags.dialect],
      ['--table', flags.table],
      ['--proba', flags.proba],
    ] as const)
      if (given !== undefined) throw new GroveError(`${flag} applies to --format sql only`, { code: 'E_OPTION' });
    return;
  }
  if (flags.format === 'onnx') {
    if (!flags.out) throw new GroveError('--format onnx writes a binary file: give --out FILE', { code: 'E_OPTION' });
    for (const [flag, given] of [
      ['--dialect', flags.dialect],
      ['--table', flags.table],
      ['--proba', flags.proba],
    ] as const) {
      if (given !== undefined)
        throw new GroveError(`${flag} applies to --format sql only (ONNX always outputs probabilities)`, {
          code: 'E_OPTION',
        });
    }
    return;
  }
  if (!flags.dialect)
    throw new GroveError(`--format sql needs --dialect ${SQL_DIALECTS.join('|')}`, { code: 'E_OPTION' });
  if (!flags.table)
    throw new GroveError('--format sql needs --table NAME (the table holding the rows)', { code: 'E_OPTION' });
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      'export a saved model to run outside grove: ONNX (ai.onnx.ml TreeEnsembleClassifier, for ONNX ' +
        'Runtime), a SQL query scoring a table (docs/export.md), or readable JSON (trees and forests); text, ' +
        'rules and DOT: grove show',
    )
    .argument('<model>', 'model file (JSON) written by grove fit')
    .requiredOption('--format <format>', FORMATS.join('|'), choiceOption('--format', FORMATS))
    .option('--out <file>', 'write to a file (required for onnx; sql: instead of stdout)')
    .option('--dialect <dialect>', `sql: ${SQL_DIALECTS.join('|')}`, choiceOption('--dialect', SQL_DIALECTS))
    .option('--table <name>', 'sql: the table (or schema.table) holding one column per feature')
    .option('--proba', "sql: add one probability column per class, named like grove predict --proba's header")
    .action(async (modelPath: string, flags: ExportFlags) => {
      checkFlags(flags);
      if (flags.out) refuseOutputOverInput([{ flag: '--out', path: flags.out }], [modelPath]);
      const model = loadAnyModel(modelPath);
      if (flags.format === 'json') {
        emit(`${JSON.stringify(model.toJSON(), null, 2)}\n`, flags.out);
        return;
      }
      if (flags.format === 'onnx') {
        // Loaded on demand: protobufjs is not worth every command's start.
        const { bytes, warnings } =
          model instanceof Forest
            ? (await import('../../export/onnx/forest.js')).forestToOnnx(model)
            : (await import('../../export/onnx/model.js')).treeToOnnx(model);
        for (const w of warnings) warn(w);
        writeFileAtomic(flags.out!, bytes);
        return;
      }
      const sqlOptions = { dialect: flags.dialect!, table: flags.table!, proba: flags.proba };
      const { sql, warnings } = model instanceof Forest ? forestToSql(model, sqlOptions) : treeToSql(model, sqlOptions);
      for (const w of warnings) warn(w);
      emit(sql, flags.out);
    });
}
