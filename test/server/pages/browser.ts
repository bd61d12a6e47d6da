import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';

/**
 * Two of @sparticuz/chromium's Lambda flags are dropped: `--disable-web-security` would switch off the very origin
 * rules these pages rely on, and under `--single-process` closing the last page ends the whole browser.
 */
const DROPPED = new Set(['--disable-web-security', '--single-process']);

/**
 * A real headless Chromium with nothing to install beyond `npm ci`: the build @sparticuz/chromium ships (unpacked
 * into the temp dir on first use, no network), or the binary `CHROMIUM` names.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM || (await chromium.executablePath());
  return playwright.launch({ executablePath, args: chromium.args.filter((a) => !DROPPED.has(a)), headless: true });
}
