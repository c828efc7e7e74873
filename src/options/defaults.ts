import { OPTION_DESCRIPTORS } from './descriptors.js';
import type { TreeOptions } from './types.js';

/** Every option's default, from the option table (the optional ones hold undefined). */
export const DEFAULTS: TreeOptions = Object.fromEntries(
  OPTION_DESCRIPTORS.map((d) => [d.name, d.default]),
) as unknown as TreeOptions;
