/**
 * Weka J48 (Debian package `weka`, /usr/share/java/weka.jar) for bench/run.mjs: one JVM per run,
 *   java -Xmx8g -cp weka.jar weka.classifiers.trees.J48 <options> -t train.arff -T test.arff
 * and the numbers are read from Weka's own output:
 *   fit      "Time taken to build model: X seconds" (Weka times buildClassifier itself, so JVM
 *            start-up and ARFF parsing are excluded; 10 ms resolution)
 *   predict  "Time taken to test model on training data: X seconds" = classifying the training
 *            rows through weka.classifiers.Evaluation (includes its bookkeeping; approximate)
 *   tree     "Number of Leaves", "Size of the tree"; height from the printed tree's indentation
 *   accuracy "Correctly Classified Instances" under "Error on training data" / "Error on test data"
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

export const WEKA_JAR = '/usr/share/java/weka.jar';

export function wekaInfo() {
  if (!existsSync(WEKA_JAR)) return null;
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return null;
  const jars = existsSync('/usr/share/java')
    ? readdirSync('/usr/share/java').filter((f) => /^weka-[\d.]+\.jar$/.test(f))
    : [];
  return {
    jar: WEKA_JAR,
    version: jars.length ? jars[0].replace(/^weka-|\.jar$/g, '') : 'unknown',
    java: (java.stderr.split('\n')[0] || '').trim(),
  };
}

export function wekaArgs(options, trainArff, testArff, xmx = '8g') {
  return [`-Xmx${xmx}`, '-cp', WEKA_JAR, 'weka.classifiers.trees.J48', ...options, '-t', trainArff, '-T', testArff];
}

export function parseWekaOutput(text, nTrain) {
  const num = (re) => {
    const m = text.match(re);
    return m ? Number(m[1]) : null;
  };
  const buildSeconds = num(/Time taken to build model:\s*([\d.]+)\s*seconds/);
  const testTrainSeconds = num(/Time taken to test model on training data:\s*([\d.]+)\s*seconds/);
  const leaves = num(/Number of Leaves\s*:\s*(\d+)/);
  const size = num(/Size of the tree\s*:\s*(\d+)/);
  const section = (title) => {
    const i = text.indexOf(title);
    if (i < 0) return null;
    const m = text.slice(i).match(/Correctly Classified Instances\s+(\d+)\s+([\d.]+)\s*%/);
    return m ? Number(m[2]) / 100 : null;
  };
  // Tree lines look like "x3 <= 0.123" / "|   |   c1 = v2: k0 (12.0/1.0)"; depth of a line = number of "|   ".
  let height = 0;
  let sawTree = false;
  for (const line of text.split('\n')) {
    const m = line.match(/^((?:\|\s+)*)\S.*\s(<=|>|=)\s/);
    if (!m) continue;
    sawTree = true;
    const depth = (m[1].match(/\|/g) || []).length + 1;
    if (depth > height) height = depth;
  }
  return {
    buildMs: buildSeconds === null ? null : buildSeconds * 1000,
    predictRowsPerSec: testTrainSeconds && nTrain ? nTrain / testTrainSeconds : null,
    nodes: size,
    leaves,
    height: sawTree ? height : size === 1 ? 0 : null,
    trainAccuracy: section('=== Error on training data ==='),
    testAccuracy: section('=== Error on test data ==='),
  };
}
