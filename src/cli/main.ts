#!/usr/bin/env node
import { holdYoungGeneration } from './young-generation.js';

// Before the CLI's modules load: an in-database fit keeps the young generation small (run.ts).
holdYoungGeneration();
const { run } = await import('./run.js');
process.exitCode = await run(process.argv.slice(2));
