// The explore page's two-worker growth (src/explore-page/grow-in-two.ts) gives fit's model: here
// the helper worker is a TaskHost in this process, sent structured clones of the messages the page
// posts (the layout copied when it is posted, as postMessage copies it).
import { describe, expect, it } from 'vitest';
import { fit, fitPlanned, planFit } from '../../src/algorithms/fit.js';
import type { Dataset } from '../../src/data/dataset.js';
import { datasetFromRows } from '../../src/data/encode.js';
import { growInTwo, growsInTwo, type Helper, type HelperJob, silentAfter } from '../../src/explore-page/grow-in-two.js';
import { linkHelper } from '../../src/explore-page/helper-link.js';
import { TaskHost } from '../../src/explore-page/task-host.js';
import type { StoreData } from '../../src/model/store.js';
import type { FitOptions } from '../../src/options/types.js';
import { readDataset } from '../../src/sources/file-source.js';
import { corpus, haveCorpus } from '../helpers/paths.js';

/**
 * A helper in this process; `tasks` counts the subtrees it grew, each answered `delayMs` after it
 * was asked for (a slow helper; 0: at once); `answers` settles when its last answer is sent.
 */
function localHelper(data: Dataset, delayMs = 0): Helper & { tasks: number; answers: Promise<unknown> } {
  const host = new TaskHost(() => data);
  let trees = 0;
  let ids = 0;
  const take = (job: HelperJob) => host.take(job);
  const helper = {
    tasks: 0,
    answers: Promise.resolve() as Promise<unknown>,
    start(options: FitOptions, layout: Parameters<Helper['start']>[1]) {
      const tree = ++trees;
      take(structuredClone({ kind: 'layout', tree, options, layout }));
      return {
        // In turn, as a worker takes its messages.
        task: (sent: Parameters<ReturnType<Helper['start']>['task']>[0]) => {
          const task = structuredClone(sent);
          // Without a delay the answer comes in the microtasks after the grower's first await, so the
          // helper always grows a task (a timer could fire after the grower had taken every task back).
          const answer = helper.answers
            .then(() => (delayMs > 0 ? new Promise((done) => setTimeout(done, delayMs)) : undefined))
            .then(() => {
              helper.tasks++;
              return structuredClone(take({ kind: 'task', tree, id: ++ids, task })!) as StoreData;
            });
          helper.answers = answer.catch(() => undefined);
          return answer;
        },
        drop: () => {
          helper.answers = helper.answers.then(() => take({ kind: 'drop', tree }));
        },
      };
    },
  };
  return helper;
}

/** 6,000 rows × 12 features: numeric with ties and missing values, a categorical one, 3 classes. */
function synthetic(): Dataset {
  const rows: Record<string, string | number>[] = [];
  for (let i = 0; i < 6000; i++) {
    const row: Record<string, string | number> = {};
    for (let f = 0; f < 11; f++) {
      const v = ((i + 1) * (f * 7919 + 104729)) % (f % 3 === 0 ? 53 : 997);
      row[`x${f}`] = f === 4 && i % 17 === 0 ? '' : v;
    }
    row.color = ['red', 'green', 'blue', 'grey'][(i * 31) % 4];
    const score = (Number(row.x1) % 100) + (i % 7) * 9 + (row.color === 'red' ? 30 : 0);
    row.class = score < 60 ? 'low' : score < 110 ? 'mid' : 'high';
    rows.push(row);
  }
  return datasetFromRows(rows, { target: 'class' });
}

async function expectFitsModel(data: Dataset, options: FitOptions): Promise<void> {
  const plan = planFit(data, options);
  expect(growsInTwo(plan, data), JSON.stringify(options)).toBe(true);
  const helper = localHelper(data);
  const { tree, helped } = await growInTwo(plan, helper);
  const model = fitPlanned(plan, tree);
  expect(helper.tasks, JSON.stringify(options)).toBeGreaterThan(0);
  expect(helped, JSON.stringify(options)).toBe(helper.tasks);
  expect(model.toJSON(), JSON.stringify(options)).toEqual(fit(data, options).toJSON());
}

const CONFIGS: FitOptions[] = [
  { prune: 'none' },
  {},
  { algorithm: 'id3' },
  { algorithm: 'zaki' },
  { algorithm: 'c45', missing: 'majority' },
  { algorithm: 'c45', missing: 'majority', prune: 'none' },
  { j48Rules: true, prune: 'none' },
  { criterion: 'dcsm', categoricalSplit: 'multiway', prune: 'pessimistic' },
  { criterion: 'gain-ratio', maxFeatures: 5, seed: 3, prune: 'none', minSamplesLeaf: 3 },
  { algorithm: 'cart', prune: 'none', maxDepth: 12, classWeight: 'balanced' },
  { bins: 64, prune: 'none' },
  { bins: 255 },
  { algorithm: 'id3', bins: 32, missing: 'majority' },
  { algorithm: 'cmbsv' },
  { algorithm: 'cmbsv', labelCoding: 'one-vs-rest', svmBias: 'max-alpha', prune: 'pessimistic' },
];

describe('the page grown on two workers', () => {
  const data = synthetic();
  for (const options of CONFIGS)
    it(`gives fit's model: ${JSON.stringify(options)}`, async () => {
      await expectFitsModel(data, options);
    });

  it("grows on one worker what it cannot split: C-MBSV's k-NN regions, best-first growth, a hold-out, fractional missing values, small data", () => {
    const refused: FitOptions[] = [
      { algorithm: 'cmbsv', unclassified: 'knn' },
      { prune: 'reduced-error' },
      { algorithm: 'c45' },
      { maxLeafNodes: 50 },
    ];
    for (const options of refused)
      expect(growsInTwo(planFit(data, options), data), JSON.stringify(options)).toBe(false);
    // Another Dataset than the one the helper holds (here: ordered categories become ranks).
    const ranked = planFit(data, { orderedCategories: { color: ['red', 'green', 'blue', 'grey'] } });
    expect(growsInTwo(ranked, data)).toBe(false);
    const small = datasetFromRows(
      Array.from({ length: 500 }, (_, i) => ({ x: i % 37, y: (i * 7) % 11, class: i % 3 ? 'a' : 'b' })),
      { target: 'class' },
    );
    expect(growsInTwo(planFit(small, { prune: 'none' }), small)).toBe(false);
  });

  it("a helper's failure leaves its tasks to the grower: fit's model all the same", async () => {
    const options: FitOptions = { prune: 'none' };
    const plan = planFit(data, options);
    let dropped = 0;
    const failing: Helper = {
      start: () => ({
        task: () => Promise.reject(new Error('the helper ran out of memory')),
        drop: () => void dropped++,
      }),
    };
    const { tree, helped } = await growInTwo(plan, failing);
    expect(helped).toBe(0);
    expect(dropped).toBe(1);
    expect(fitPlanned(plan, tree).toJSON()).toEqual(fit(data, options).toJSON());
  });

  it("a helper that never answers (hung, or killed without a word): the grower grows its task itself, fit's model, and reports it silent after the wait", async () => {
    const options: FitOptions = { algorithm: 'id3' };
    const plan = planFit(data, options);
    let sent = 0;
    const silent: Helper = {
      start: () => ({
        task: () => {
          sent++;
          return new Promise<never>(() => undefined);
        },
        drop: () => undefined,
      }),
    };
    const waits: number[] = [];
    let reported = 0;
    let fellSilent!: () => void;
    const news = new Promise<void>((done) => {
      fellSilent = done;
    });
    const { tree, helped } = await growInTwo(
      plan,
      silent,
      () => {
        reported++;
        fellSilent();
      },
      (grownMs) => {
        waits.push(grownMs);
        return 20;
      },
    );
    expect(sent).toBe(1);
    expect(waits).toHaveLength(1);
    expect(helped).toBe(0);
    expect(fitPlanned(plan, tree).toJSON()).toEqual(fit(data, options).toJSON());
    // Reported after the tree is returned, once.
    await news;
    expect(reported).toBe(1);
    // The default wait: four times the grower's own time on the task owed, at least a second.
    expect(silentAfter(10)).toBe(1000);
    expect(silentAfter(400)).toBe(1600);
  });

  it("a helper slow but alive: the grower grows its task too rather than wait, fit's model, and the late answer is no silence", async () => {
    const options: FitOptions = { algorithm: 'id3' };
    const plan = planFit(data, options);
    // Slow enough that the grower finishes first even on a loaded machine.
    const slow = localHelper(data, 4000);
    let silent = 0;
    const { tree } = await growInTwo(
      plan,
      slow,
      () => silent++,
      () => 6000,
    );
    // Returned before the helper's first answer: no wait for it.
    expect(slow.tasks).toBe(0);
    expect(fitPlanned(plan, tree).toJSON()).toEqual(fit(data, options).toJSON());
    await slow.answers;
    expect(slow.tasks).toBe(1);
    // Past the wait counted from the grow's end: the answer came in time, no silence reported.
    await new Promise((done) => setTimeout(done, 6100));
    expect(silent).toBe(0);
  });

  it("a helper that stops answering, its link then replaced: the grower grows what it lost, fit's model", async () => {
    const options: FitOptions = { algorithm: 'c45', missing: 'majority' };
    const plan = planFit(data, options);
    const { port1, port2 } = new MessageChannel();
    const link = linkHelper(port1);
    // The helper's end: answers the first task, then falls silent; the second task makes the page
    // (here the test) replace the link, as it does when it restarts a failed helper.
    const host = new TaskHost(() => data);
    let tasks = 0;
    port2.onmessage = (e: MessageEvent<HelperJob>) => {
      const job = e.data;
      if (job.kind !== 'task') return void host.take(job);
      if (++tasks === 1) port2.postMessage({ id: job.id, nodes: host.take(job) });
      else link.close();
    };
    try {
      const { tree, helped } = await growInTwo(plan, link);
      expect(tasks).toBeGreaterThan(1);
      expect(helped).toBe(1);
      expect(fitPlanned(plan, tree).toJSON()).toEqual(fit(data, options).toJSON());
      // A closed link refuses tasks at once rather than leaving them unanswered.
      const late = await growInTwo(plan, link);
      expect(late.helped).toBe(0);
      expect(fitPlanned(plan, late.tree).toJSON()).toEqual(fit(data, options).toJSON());
    } finally {
      port2.close();
    }
  });

  it('a tree grown elsewhere that fit does not use is an internal error, not ignored', async () => {
    const { tree } = await growInTwo(planFit(data, { prune: 'none' }), localHelper(data));
    // Reduced-error pruning grows on the rows it does not hold out, never on all of them.
    expect(() => fitPlanned(planFit(data, { prune: 'reduced-error' }), tree)).toThrow(
      'internal: the tree grown elsewhere was not used',
    );
  });

  it("a layout the helper could not take fails that tree's tasks with its error", () => {
    const host = new TaskHost(() => data);
    const options = { criterion: 'no-such-measure' } as FitOptions;
    host.take({ kind: 'layout', tree: 1, options, layout: { mode: 'exact', pool: {} as never, numeric: [] } });
    const task = { kind: 'task', tree: 1, id: 1, task: {} as never } as const;
    expect(() => host.take(task)).toThrow('no-such-measure');
    expect(() => host.take({ ...task, tree: 2 })).toThrow('whose layout is not here');
    host.take({ kind: 'drop', tree: 1 });
    expect(() => host.take(task)).toThrow('whose layout is not here');
  });

  it.skipIf(!haveCorpus)(
    "gives fit's model on magic (the page's largest data set)",
    async () => {
      const magic = await readDataset(corpus('magic'));
      for (const options of [
        { prune: 'none' },
        { algorithm: 'id3' },
        { algorithm: 'c45', prune: 'none' },
        { algorithm: 'cmbsv' },
      ] as FitOptions[])
        await expectFitsModel(magic, options);
    },
    60_000,
  );

  it.skipIf(!haveCorpus)(
    "C-MBSV with unclassified regions (empty inner branches), joined from pieces: fit's model (satellite)",
    async () => {
      const satellite = await readDataset(corpus('satellite'));
      expect(fit(satellite, { algorithm: 'cmbsv' }).nodes.filter((node) => node.unclassified).length).toBeGreaterThan(
        0,
      );
      await expectFitsModel(satellite, { algorithm: 'cmbsv' });
    },
    60_000,
  );
});
