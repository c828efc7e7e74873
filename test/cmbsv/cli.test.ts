import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, grove, lines, parseCsv } from '../helpers/cli.js';

// a on [0, 1], b at 2 and 2.1, c on [4, 5]: the root's thresholds are 1.29, 2.5 and 3.3, and
// (2.5, 3.3] holds no training row — an unclassified region.
const TRAIN = `${[
  'x,y',
  ...[0, 0.25, 0.5, 0.75, 1].map((x) => `${x},a`),
  '2,b',
  '2.1,b',
  ...[4, 4.25, 4.5, 4.75, 5].map((x) => `${x},c`),
].join('\n')}\n`;
const PROBE = 'x,note\n0.3,p\n2.9,q\n4.6,r\n'; // (the reader wants two columns)

describe('grove CLI with C-MBSV', () => {
  let dir = '';
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'grove-cmbsv-'));
    writeFileSync(join(dir, 'train.csv'), TRAIN);
    writeFileSync(join(dir, 'probe.csv'), PROBE);
  });

  it('writes the literal `unclassified` and empty probabilities for a row in an unclassified region', () => {
    const fitted = grove(['fit', join(dir, 'train.csv'), '--algorithm', 'cmbsv', '--out', join(dir, 'plain.json')]);
    expect(fitted.status).toBe(0);
    expect(fitted.stderr).toMatch(/cmbsv tree \(correlation\)/);
    const r = grove(['predict', '--model', join(dir, 'plain.json'), join(dir, 'probe.csv'), '--proba']);
    expect(r.status).toBe(0);
    expect(parseCsv(r.stdout)).toEqual([
      ['predicted', 'a', 'b', 'c'],
      ['a', '1', '0', '0'],
      ['unclassified', '', '', ''],
      ['c', '0', '0', '1'],
    ]);
    const noData = grove([
      'predict',
      '--model',
      join(dir, 'plain.json'),
      join(dir, 'probe.csv'),
      '--unclassified',
      'knn',
    ]);
    expect(noData.status).toBe(2);
    expect(noData.stderr).toMatch(/no k-NN data.*--unclassified knn/);
  });

  it('--unclassified knn stores the rows k-NN needs; predict uses them unless told not to', () => {
    expect(
      grove([
        'fit',
        join(dir, 'train.csv'),
        '--algorithm',
        'cmbsv',
        '--unclassified',
        'knn',
        '--knn-k',
        '1',
        '--out',
        join(dir, 'knn.json'),
      ]).status,
    ).toBe(0);
    const model = JSON.parse(readFileSync(join(dir, 'knn.json'), 'utf8'));
    expect(model.options.cmbsv).toMatchObject({ unclassified: 'knn', knnK: 1 });
    expect(model.nodes.filter((n: { knn?: unknown }) => n.knn)).toHaveLength(1);
    const knn = grove(['predict', '--model', join(dir, 'knn.json'), join(dir, 'probe.csv')]);
    expect(lines(knn.stdout)).toEqual(['predicted', 'a', 'b', 'c']); // 2.9 is nearest to b's 2.1
    const none = grove(['predict', '--model', join(dir, 'knn.json'), join(dir, 'probe.csv'), '--unclassified', 'none']);
    expect(lines(none.stdout)).toEqual(['predicted', 'a', 'unclassified', 'c']);
  });

  it('shows the multi-branch intervals and the region; rejects bad C-MBSV flags', () => {
    const show = grove(['show', join(dir, 'knn.json')]);
    expect(show.stdout).toMatch(/^2\.5 < x <= 3\.3: unclassified region \(k-NN over 12 rows\)$/m);
    const bad = grove([
      'fit',
      join(dir, 'train.csv'),
      '--algorithm',
      'cmbsv',
      '--svm-c',
      '-1',
      '--out',
      join(dir, 'bad.json'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--svm-c must be a finite number > 0/);
  });

  it('--ordered maps an ordered categorical column to its rank, in fit and in predict', () => {
    writeFileSync(join(dir, 'sizes.csv'), 'size,y\nS,no\nS,no\nM,no\nL,yes\nXL,yes\nXL,yes\n');
    const r = grove([
      'fit',
      join(dir, 'sizes.csv'),
      '--algorithm',
      'cmbsv',
      '--ordered',
      'size=S,M,L,XL',
      '--out',
      join(dir, 'sizes.json'),
    ]);
    expect(r.status).toBe(0);
    const model = JSON.parse(readFileSync(join(dir, 'sizes.json'), 'utf8'));
    expect(model.features[0]).toEqual({ name: 'size', kind: 'numeric', levels: ['S', 'M', 'L', 'XL'] });
    writeFileSync(join(dir, 'sizes-probe.csv'), 'size,note\nM,p\nL,q\n');
    expect(lines(grove(['predict', '--model', join(dir, 'sizes.json'), join(dir, 'sizes-probe.csv')]).stdout)).toEqual([
      'predicted',
      'no',
      'yes',
    ]);
  });
});
