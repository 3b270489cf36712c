import { defineConfig } from 'vitest/config'

// Unit tests import server/shared code directly; e2e and browser tests start the real built
// server (`.output/`, made by `nuxt build` in `npm test`) over HTTP with real storage.
export default defineConfig({
  test: {
    projects: [
      // Projects whose worker settings differ need their own group (unit, then e2e, then browser).
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two cores: each file starts its own server (and sometimes s3rver).
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
})
