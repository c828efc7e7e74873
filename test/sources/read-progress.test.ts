/** Read progress: nothing for the first second, then a bar with the amount read and a rate; none off a terminal. */
import { describe, expect, it } from 'vitest';
import { readProgressBar } from '../../src/cli/read-progress.js';
import { assertBuilt, grove } from '../helpers/cli.js';
import { fakeTerminal } from '../helpers/fake-terminal.js';
import { fixture } from '../helpers/paths.js';

describe('read progress', () => {
  it('draws nothing during the first second, then bytes read of the total and a rate', () => {
    let t = 0;
    const out = fakeTerminal();
    const bar = readProgressBar('big.csv', out, () => t);
    t = 500;
    bar.onProgress({ bytes: 10 << 20, totalBytes: 100 << 20 });
    expect(out.text).toBe('');
    t = 2000;
    bar.onProgress({ bytes: 40 << 20, totalBytes: 100 << 20 });
    bar.stop();
    expect(out.text).toMatch(/grove: reading big\.csv .* 40% \| 40\.0 MB of 100\.0 MB \| 20\.0 MB\/s/);
  });

  it('rows for a source that counts rows', () => {
    let t = 0;
    const out = fakeTerminal();
    const bar = readProgressBar('x.parquet', out, () => t);
    t = 4000;
    bar.onProgress({ rows: 2_000_000, totalRows: 4_000_000 });
    bar.stop();
    expect(out.text).toMatch(/50% \| 2\.0M rows of 4\.0M rows \| 500k rows\/s/);
  });

  it('the CLI writes no progress when stderr is not a terminal', () => {
    assertBuilt();
    const r = grove(['info', fixture('play-tennis.csv')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
