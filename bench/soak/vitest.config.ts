import { defineConfig } from 'vitest/config'

// The venue screen's all-night soak: a benchmark (about three and a half minutes of wall time for
// eight hours of the page's clock), so it runs with `npm run bench:soak`, not in `npm test`. It
// starts the real built server (`npx nuxt build` first) and Debian's Chromium, as the browser tests do.
export default defineConfig({
  test: {
    include: ['bench/soak/**/*.test.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
})
