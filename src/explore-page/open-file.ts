/**
 * The page's file opening: the file picker and a drop anywhere on the page hand a file to the
 * page (which has its worker read it), and the texts about the data set are written again for the
 * data set opened. The page's other panes are the page's to clear (page.ts holds their state).
 */
import type { DataShape } from '../explore/embedded.js';
import { dataSummary, pageTitle, sampleNotice } from '../explore/page-text.js';
import { el } from './dom.js';
import { PAGE_EXTENSIONS } from './page-formats.js';
import { $, report, showError } from './page-status.js';
import type { Opened } from './protocol.js';
import type { OpenedFile } from './reader-client.js';

/** Whether a drag carries files (not text or a link dragged within the page). */
function carriesFiles(e: DragEvent): boolean {
  return e.dataTransfer?.types.includes('Files') ?? false;
}

/** Hand each file picked (the `#file` input) or dropped on the page to `open`. */
export function watchFiles(open: (file: File) => void): void {
  const input = $<HTMLInputElement>('file');
  input.accept = PAGE_EXTENSIONS.join(',');
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    // Cleared, so that picking the same file again (after fixing it) is a change too.
    input.value = '';
    if (file) open(file);
  });
  const body = document.body;
  // dragenter and dragleave fire for each element crossed: the outline goes when the count is back to 0.
  let inside = 0;
  document.addEventListener('dragenter', (e) => {
    if (!carriesFiles(e)) return;
    inside++;
    body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (e) => {
    if (!carriesFiles(e)) return;
    inside = Math.max(0, inside - 1);
    if (inside === 0) body.classList.remove('dropping');
  });
  document.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    // Without this the browser would navigate to the dropped file, leaving the page.
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    inside = 0;
    body.classList.remove('dropping');
    const files = e.dataTransfer?.files;
    if (!files || files.length === 0) return;
    if (files.length > 1) showError(`${files.length} files dropped: drop one data file`);
    else open(files[0]);
  });
}

/**
 * The target choice: `columns` of the file opened in the page, `target` chosen. Data embedded by
 * `grove explore DATA` has no file to read again: its target is shown, not offered.
 */
export function showTargets(columns: readonly string[] | undefined, target: string): void {
  const select = $<HTMLSelectElement>('target');
  select.replaceChildren(...(columns ?? [target]).map((c) => el('option', { value: c }, c)));
  select.value = target;
  select.disabled = columns === undefined;
  select.title = columns ? '' : 'chosen by grove explore --target for the data set it embedded';
}

/** The file opened in the page, and its columns (what the target choice offers). */
let opened: { file: File; columns: string[] } | undefined;

/** Hand the file opened and each target the user chooses for it to `choose`. */
export function watchTarget(choose: (file: File, target: string) => void): void {
  const select = $<HTMLSelectElement>('target');
  select.addEventListener('change', () => opened && choose(opened.file, select.value));
}

/**
 * Read `file` with class column `target` (default: the CLI's) through `read` and hand the file read
 * to `use`; the target choice then offers the file's columns. A file that cannot be read leaves
 * the data set held (`held`) and its target shown, and the page says what is wrong.
 */
export async function openFile(
  file: File,
  target: string | undefined,
  read: (file: File, target?: string) => Promise<OpenedFile>,
  use: (read: OpenedFile) => void,
  held: DataShape | undefined,
): Promise<void> {
  const got = await readFile(file, (f) => read(f, target));
  if (!got) {
    if (held) showTargets(opened?.columns, held.target);
    return;
  }
  const d = got.data;
  if (opened?.file !== file) opened = { file, columns: [...d.features.map((c) => c.name), d.target] };
  showTargets(opened.columns, d.target);
  use(got);
}

/** The page's title, summary line and sample notice, for `data`. */
export function showDataTexts(data: DataShape): void {
  document.title = pageTitle(data);
  $('title').textContent = pageTitle(data);
  $('summary').textContent = dataSummary(data);
  const notice = $('notice');
  notice.textContent = sampleNotice(data);
  notice.hidden = notice.textContent === '';
}

/** Every pane emptied of the data set before: trees, stats, rules, the node's panel. */
export function clearPanes(): void {
  for (const s of ['a', 'b']) {
    $(`tree-${s}`).replaceChildren();
    $(`stats-${s}`).textContent = '';
    $(`cv-${s}`).textContent = '';
    $(`rules-${s}`).textContent = '';
    $(`rules-${s}-all`).hidden = true;
  }
  $('disagree').textContent = '';
  $('node-body').replaceChildren(el('p', { class: 'muted' }, 'Click a node (or focus it and press Enter).'));
}

/**
 * `read(file)`, the page's status line saying so meanwhile and then how long it took, with the
 * reader's warnings; undefined when the file could not be read (the page shows why, in one line).
 */
export async function readFile<T extends Opened>(file: File, read: (file: File) => Promise<T>): Promise<T | undefined> {
  const status = $('file-status');
  status.hidden = false;
  status.textContent = `Reading ${file.name} (${sizeText(file.size)})…`;
  const t0 = performance.now();
  try {
    const opened = await read(file);
    const ms = performance.now() - t0;
    status.dataset.readMs = ms.toFixed(1);
    status.textContent = [`Read ${file.name} in ${(ms / 1000).toFixed(2)} s.`, ...opened.warnings].join('\n');
    return opened;
  } catch (err) {
    status.hidden = true;
    report(err);
    return undefined;
  }
}

/** `bytes` for a status line: `12.3 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1e3) return `${bytes} bytes`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
