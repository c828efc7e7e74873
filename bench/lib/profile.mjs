/**
 * Summarise a V8 .cpuprofile (node --cpu-prof): self time per function and per source line.
 *
 *   node bench/lib/profile.mjs FILE.cpuprofile [TOP]
 *
 * Locations are shown relative to the project root; a dist/*.js location is mapped through its
 * source map (dist/*.js.map, emitted by tsc) to the src/*.ts line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function summarizeProfile(file, root, top = 25) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = (prof.timeDeltas[i + 1] ?? 0) / 1000; // µs -> ms; the delta after a sample belongs to it
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
    total += dt;
  }
  const maps = new Map();
  const texts = new Map();
  const generatedLines = (path) => {
    if (!texts.has(path)) {
      let t = null;
      try {
        t = readFileSync(path, 'utf8').split('\n');
      } catch {
        t = null;
      }
      texts.set(path, t);
    }
    return texts.get(path);
  };
  const sourceMap = (path) => {
    if (!maps.has(path)) {
      let m = null;
      try {
        if (existsSync(`${path}.map`)) m = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
      } catch {
        m = null;
      }
      maps.set(path, m);
    }
    return maps.get(path);
  };
  // line: 1-based
  const where = (cf, line, column = null) => {
    let url = cf.url || '';
    if (!url) return '(native/VM)';
    if (url.startsWith('file://')) url = fileURLToPath(url);
    const m = url.endsWith('.js') ? sourceMap(url) : null;
    if (m) {
      // A tick's line has no column: look up the line's first non-blank character (column 0 would
      // find the previous line's last mapping).
      if (column === null) {
        const text = generatedLines(url);
        column = text?.[line - 1] ? Math.max(0, text[line - 1].search(/\S/)) : 0;
      }
      const e = m.findEntry(line - 1, column);
      if (e?.originalSource) {
        let src = e.originalSource;
        if (src.startsWith('file://')) src = fileURLToPath(src);
        // A run's dist snapshot (bench/.dist-snapshot/<pid>/) stands for dist/: resolve from there.
        src = resolve(url.replace(/([\\/])bench[\\/]\.dist-snapshot[\\/][^\\/]+[\\/]/, '$1dist$1'), '..', src);
        return `${root ? relative(root, src) : src}:${e.originalLine + 1}`;
      }
    }
    return `${root ? relative(root, url) : url}:${line}`;
  };
  const fns = new Map();
  const lines = new Map();
  for (const [id, ms] of self) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const name = cf.functionName || (cf.url ? '(anonymous)' : n.callFrame.functionName || '(program)');
    const key = `${name}@${cf.url}:${cf.lineNumber}`;
    const f = fns.get(key) ?? { name, location: where(cf, cf.lineNumber + 1, cf.columnNumber), selfMs: 0 };
    f.selfMs += ms;
    fns.set(key, f);
    const ticks = n.positionTicks ?? [];
    const sum = ticks.reduce((a, t) => a + t.ticks, 0);
    for (const t of ticks) {
      const loc = `${where(cf, t.line)} (${name})`;
      lines.set(loc, (lines.get(loc) ?? 0) + (ms * t.ticks) / sum);
    }
  }
  const functions = [...fns.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top)
    .map((f) => ({ ...f, share: f.selfMs / total }));
  const lineList = [...lines.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([location, selfMs]) => ({ location, selfMs, share: selfMs / total }));
  return { totalMs: total, functions, lines: lineList };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node bench/lib/profile.mjs FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  const s = summarizeProfile(file, resolve(fileURLToPath(import.meta.url), '../../..'), Number(process.argv[3] ?? 25));
  console.log(`total ${s.totalMs.toFixed(0)} ms`);
  for (const f of s.functions)
    console.log(
      `${f.selfMs.toFixed(0).padStart(8)} ms ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}  ${f.location}`,
    );
  console.log(
    "\nlines (unreliable for inlined code: V8 files an inlined callee's ticks under the caller with the callee's line numbers):",
  );
  for (const l of s.lines)
    console.log(`${l.selfMs.toFixed(0).padStart(8)} ms ${(l.share * 100).toFixed(1).padStart(5)}%  ${l.location}`);
}
