import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/**
 * Chromium as every test and benchmark runs it, written once: Debian's build (CHROMIUM_PATH to use
 * another), headless, with nothing of its own talking to the network. No vitest here: bench/
 * scripts launch it too.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS: readonly string[] = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** Chromium's own fake microphone and camera (a beep), granted without a prompt: the recorder's tests. */
export const FAKE_MEDIA_DEVICES: readonly string[] = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] })
}

/**
 * A browser with a profile on disk, as a phone keeps one: what a service worker, its caches and
 * Background Sync need to outlive a page, and what an install prompt looks at.
 */
export function launchPersistentChromium(userDataDir: string, options: Parameters<typeof chromium.launchPersistentContext>[1] = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { ...options, executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...(options.args ?? [])] })
}
