import { fileURLToPath } from 'node:url'
import { defineVitestProject } from '@nuxt/test-utils/config'
import { defineConfig } from 'vitest/config'

// Nuxt's aliases for shared/ and the app's root, which server, shared and front-end code import
// through; plain vitest knows no aliases.
const sharedAlias = { '#shared': fileURLToPath(new URL('./shared', import.meta.url)), '~': fileURLToPath(new URL('.', import.meta.url)) }

// Unit tests import server/shared code directly; nuxt tests mount composables and components in
// @nuxt/test-utils' Nuxt environment (happy-dom, auto-imports, `mountSuspended`); e2e and browser
// tests start the real built server (`.output/`, made by `nuxt build` in `npm test`) over HTTP with
// real storage.
export default defineConfig({
  test: {
    projects: [
      { resolve: { alias: sharedAlias }, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } } },
      await defineVitestProject({
        test: {
          name: 'nuxt',
          include: ['tests/nuxt/**/*.test.ts'],
          environment: 'nuxt',
          setupFiles: ['tests/nuxt/setup-messages.ts'],
          sequence: { groupOrder: 1 },
        },
      }),
      {
        // Some e2e suites run server modules in the test process (the video-location drivers against s3rver).
        resolve: { alias: sharedAlias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two cores: each file starts its own server (and sometimes s3rver).
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          // One Chromium for the project; each file connects to it (tests/browser/support/fixture.ts).
          globalSetup: ['tests/browser/support/global-browser.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Three files at once on two cores: a browser file mostly waits (on its page's timers, its
          // server, a throttled upload), and all of them share one Chromium (global-browser.ts).
          maxWorkers: 3,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
})
