import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), or the browser `PLANTSTORE_CHROMIUM` names. */
export const chromiumExecutable = process.env.PLANTSTORE_CHROMIUM ?? '/usr/bin/chromium';

// Headless, as root, on a machine with no network but loopback: without the background-networking
// flags Chromium keeps dialling Google's services, and each refused connection is noise in its log.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running headless Chromium with a profile of its own, removed by `close`. */
export interface HeadlessChromium {
  readonly context: BrowserContext;
  readonly close: () => Promise<void>;
}

/**
 * Whether {@link chromiumExecutable} is installed.
 *
 * @returns true when the file exists
 * @example
 * ```ts
 * if (!hasChromium()) console.warn(`no browser at ${chromiumExecutable}`);
 * ```
 */
export function hasChromium(): boolean {
  return existsSync(chromiumExecutable);
}

/**
 * Starts headless Chromium through playwright-core with a fresh, empty profile folder.
 *
 * @param viewport - the page size, in CSS pixels
 * @returns the browser context, and `close` that stops it and removes the profile
 * @example
 * ```ts
 * const browser = await startChromium({ width: 1280, height: 800 });
 * const page = await browser.context.newPage();
 * await browser.close();
 * ```
 */
export async function startChromium(viewport: {
  readonly width: number;
  readonly height: number;
}): Promise<HeadlessChromium> {
  const profile = await mkdtemp(join(tmpdir(), 'plantstore-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumExecutable,
    headless: true,
    args: ARGS,
    viewport,
    // A cold start on a busy two-core machine can take many seconds.
    timeout: 120_000,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
