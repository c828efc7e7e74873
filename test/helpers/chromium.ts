/** Debian's Chromium for the browser tests (playwright-core), started the same way by each. */
import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';

/** The Chromium binary: $GROVE_CHROMIUM or Debian's. */
export const CHROMIUM = process.env.GROVE_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the binary is there (the browser tests skip, saying so, when it is not). */
export const haveChromium = existsSync(CHROMIUM);

/** Headless Chromium with a throwaway profile in `profile`, no network chatter, at the given viewport. */
export function launchChromium(profile: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
