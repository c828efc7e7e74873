import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from '../../src/data/csv-write.js';
import { parseCsvText } from '../../src/data/delimited.js';

describe('csv-write', () => {
  it('quotes a field only when it must (a comma, a quote, a line end, outer spaces)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(2.5)).toBe('2.5');
    expect(csvField(true)).toBe('true');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
  });

  it('writes lines the CSV reader reads back to the same cells', () => {
    const rows = [
      ['name', 'note', 'class'],
      ['a,b', 'say "hi"', 'x'],
      ['c', 'two\r\nlines', 'y'],
    ];
    const data = parseCsvText(`${rows.map(csvLine).join('\n')}\n`, { target: 'class' });
    expect(data.features.map((f) => f.name)).toEqual(['name', 'note']);
    expect(data.nRows).toBe(2);
    const name = data.features[0];
    const note = data.features[1];
    if (name.kind !== 'categorical' || note.kind !== 'categorical') throw new Error('expected categorical columns');
    expect([...name.codes].map((v) => name.categories[v])).toEqual(['a,b', 'c']);
    expect([...note.codes].map((v) => note.categories[v])).toEqual(['say "hi"', 'two\r\nlines']);
  });
});
