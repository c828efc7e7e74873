/**
 * Every TypeScript example of the README, as a user with a new project would take it: compiled
 * against the built package's types under the settings `tsc --init` writes (strict,
 * noUncheckedIndexedAccess, exactOptionalPropertyTypes, verbatimModuleSyntax, nodenext), then run.
 * An example that goes on from an earlier one (`tree`, `data`, `rows`) gets those names from a
 * prelude of the same values: iris, a CART tree, one row.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, repoRoot } from '../helpers/cli.js';
import { type Block, readmeBlocks, userProject } from './readme-helpers.js';

/** Names an example may use without defining them, and the code that defines each. */
const PRELUDE: ReadonlyArray<readonly [string, string]> = [
  ['data', "const data = await __node.readDataset('data/iris.csv');"],
  ['tree', "const tree = __grove.fit(await __node.readDataset('data/iris.csv'), { algorithm: 'cart' });"],
  ['rows', "const rows = [{ 'sepal-length': 5.1, 'sepal-width': 3.5, 'petal-length': 1.4, 'petal-width': 0.2 }];"],
  ['testData', "const testData = await __node.readDataset('data/iris.csv');"],
  [
    'bytes',
    "const bytes = __arrow.tableToIPC(__arrow.tableFromArrays({ tenure: Float64Array.from([1, 5, 9, 12, 3, 7]), churn: ['no', 'yes', 'no', 'yes', 'no', 'yes'] }));",
  ],
];
const PRELUDE_IMPORTS = [
  "import * as __grove from 'grove';",
  "import * as __node from 'grove/node';",
  "import * as __arrow from 'apache-arrow';",
];

/** The tsconfig.json `tsc --init` (TypeScript 5.9) writes, as compiler options, emitting JavaScript. */
const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  moduleDetection: ts.ModuleDetectionKind.Force,
  skipLibCheck: true,
  types: ['node'],
};

interface Example {
  block: Block;
  file: string;
  /** Lines before the example's first line in its file. */
  offset: number;
}

/** The example's file: the prelude for the names it uses but does not define, then its text. */
function exampleSource(text: string): { source: string; offset: number } {
  const defines = (name: string) =>
    new RegExp(
      `\\b(const|let|var)\\s+(\\{[^}]*\\b${name}\\b[^}]*\\}|${name}\\b)|import[^;]*\\b${name}\\b[^;]*from`,
    ).test(text);
  const lines = PRELUDE.filter(([name]) => new RegExp(`\\b${name}\\b`).test(text) && !defines(name)).map(
    ([, code]) => code,
  );
  const head = [...PRELUDE_IMPORTS, ...lines, 'void __grove; void __node; void __arrow;'];
  return { source: `${head.join('\n')}\n${text}\n`, offset: head.length };
}

let dir = '';
const examples: Example[] = [];

beforeAll(async () => {
  assertBuilt();
  dir = userProject();
  // The files the examples name: a Parquet table with a `churn` column, a big.csv.
  copyFileSync(resolve(repoRoot, 'data/iris.csv'), join(dir, 'big.csv'));
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT range::DOUBLE AS tenure, CASE WHEN range % 3 = 0 THEN 'yes' ELSE 'no' END AS churn
    FROM range(60)) TO '${join(dir, 'sales.parquet')}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  for (const block of readmeBlocks().filter((b) => b.lang === 'ts')) {
    const { source, offset } = exampleSource(block.text);
    const file = join(dir, `readme-${block.line}.ts`);
    writeFileSync(file, source);
    examples.push({ block, file, offset });
  }
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the README's TypeScript examples", () => {
  it('compile under tsc --init settings against the built types', () => {
    expect(examples.length).toBeGreaterThan(5);
    const program = ts.createProgram(
      examples.map((e) => e.file),
      { ...OPTIONS, typeRoots: [join(dir, 'node_modules/@types')], outDir: dir, rootDir: dir },
    );
    const emitted = program.emit();
    const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const example = examples.find((e) => e.file === d.file?.fileName);
      if (!example || d.file === undefined || d.start === undefined) return text;
      const line = d.file.getLineAndCharacterOfPosition(d.start).line;
      return `README.md:${example.block.line + 1 + line - example.offset}: TS${d.code} ${text}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it('run', async () => {
    const failed: string[] = [];
    for (const e of examples) {
      // Asynchronously: the test worker keeps answering vitest while an example runs.
      await promisify(execFile)(process.execPath, [e.file.replace(/\.ts$/, '.js')], {
        cwd: dir,
        timeout: 120_000,
      }).catch((err: { code?: unknown; stderr?: string }) =>
        failed.push(`README.md:${e.block.line}: exit ${String(err.code)}: ${(err.stderr ?? '').slice(0, 600)}`),
      );
    }
    expect(failed).toEqual([]);
  }, 600_000);
});
