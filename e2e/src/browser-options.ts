// How every journey launches Chromium: Debian's binary, headless, no network side traffic.
import type { LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const launchOptions: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
