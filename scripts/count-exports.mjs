#!/usr/bin/env node
/**
 * Count the names each package entry point exports, from the built dist/ (run `npm run build`
 * first): runtime names (what `import * as m` holds) and type-only names (from the .d.ts).
 *
 *   node scripts/count-exports.mjs          a table, one row per entry point
 *   node scripts/count-exports.mjs --names  the names themselves too
 *   node scripts/count-exports.mjs --json   the same as JSON
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Type-only names of a declaration file: exported symbols that carry no value. */
function typeNames(dts) {
  const program = ts.createProgram([dts], { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(dts);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const names = [];
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!(target.flags & ts.SymbolFlags.Value)) names.push(symbol.getName());
  }
  return names.sort();
}

const rows = [];
for (const [entry, target] of Object.entries(pkg.exports)) {
  const js = join(root, target.import);
  const runtime = Object.keys(await import(pathToFileURL(js).href)).sort();
  const types = typeNames(join(root, target.types));
  rows.push({ entry: entry === '.' ? 'grove' : `grove/${entry.slice(2)}`, runtime, types });
}

const args = new Set(process.argv.slice(2));
if (args.has('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log('entry point      runtime  types  total');
  for (const { entry, runtime, types } of rows) {
    const total = runtime.length + types.length;
    console.log(
      `${entry.padEnd(16)} ${String(runtime.length).padStart(7)} ${String(types.length).padStart(6)} ${String(total).padStart(6)}`,
    );
    if (args.has('--names')) {
      console.log(`  runtime: ${runtime.join(', ')}`);
      console.log(`  types:   ${types.join(', ')}`);
    }
  }
}
