#!/usr/bin/env node
// Code shape check: lists files in src/ over 400 lines, functions over 80 lines and lines over
// 120 characters, so that the "small files of one job" rule can be measured, not guessed.
//   node scripts/code-shape.mjs [--summary] [--files N] [--functions N] [--width N] [DIR]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const limits = { files: 400, functions: 80, width: 120 };
let summary = false;
let dir = resolve(root, 'src');
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--summary') summary = true;
  else if (a === '--files' || a === '--functions' || a === '--width') limits[a.slice(2)] = Number(args[++i]);
  else dir = resolve(a);
}

function sourceFiles(d) {
  const out = [];
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** A readable name for a function-like node: `Class.method`, `name`, or `<arrow>` with its variable. */
function functionName(node) {
  const own = node.name && ts.isIdentifier(node.name) ? node.name.text : node.name?.getText();
  let name = own;
  if (!name && ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) {
    name = node.parent.name.text;
  }
  if (!name && ts.isPropertyAssignment(node.parent)) name = node.parent.name.getText();
  if (ts.isConstructorDeclaration(node)) name = 'constructor';
  const cls = node.parent && (ts.isClassDeclaration(node.parent) || ts.isClassExpression(node.parent));
  if (cls && node.parent.name) name = `${node.parent.name.text}.${name}`;
  return name ?? '<anonymous>';
}

const longFiles = [];
const longFunctions = [];
const wideLines = [];
for (const file of sourceFiles(dir)) {
  const text = readFileSync(file, 'utf8');
  const rel = relative(root, file);
  const lines = text.split('\n');
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count > limits.files) longFiles.push({ rel, count });
  lines.forEach((line, i) => {
    if (line.length > limits.width) wideLines.push({ rel, line: i + 1, width: line.length });
  });
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      if (length > limits.functions) longFunctions.push({ rel, line: start + 1, name: functionName(node), length });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

if (!summary) {
  console.log(`files over ${limits.files} lines:`);
  for (const f of longFiles.sort((a, b) => b.count - a.count)) console.log(`  ${f.count}\t${f.rel}`);
  console.log(`functions over ${limits.functions} lines:`);
  for (const f of longFunctions.sort((a, b) => b.length - a.length)) {
    console.log(`  ${f.length}\t${f.rel}:${f.line}\t${f.name}`);
  }
  console.log(`lines over ${limits.width} characters:`);
  for (const l of wideLines.sort((a, b) => b.width - a.width)) console.log(`  ${l.width}\t${l.rel}:${l.line}`);
}
const wideFiles = new Set(wideLines.map((l) => l.rel)).size;
console.log(
  `${longFiles.length} files over ${limits.files} lines, ${longFunctions.length} functions over ` +
    `${limits.functions} lines, ${wideLines.length} lines over ${limits.width} characters in ${wideFiles} files`,
);
