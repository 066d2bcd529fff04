import { chromium, type LaunchOptions } from 'playwright'

/**
 * Debian's Chromium as the browser tests and the benchmarks launch it (docs/testing.md, "One
 * browser"): no downloaded browser (`CHROMIUM_PATH` to use another), and nothing that reaches
 * out to Google's services during a run.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
]

export function launchChromium(options: LaunchOptions = {}) {
  return chromium.launch({
    ...options,
    headless: true,
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  })
}
