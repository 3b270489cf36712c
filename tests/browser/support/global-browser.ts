import type { TestProject } from 'vitest/node'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium'

/**
 * One Chromium for the whole browser project: each file connects to it (useBrowser) and opens its
 * own contexts, instead of paying a browser start per file. Contexts share nothing (cookies,
 * storage, service workers, cache), so files stay as independent as with a browser each.
 */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return async () => {
    await server.close()
  }
}
