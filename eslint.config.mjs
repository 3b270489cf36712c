import withNuxt from './.nuxt/eslint.config.mjs'

export default withNuxt(
  { ignores: ['db/migrations/**', 'bench/RESULTS.md'] },
  {
    // Tests read loosely typed JSON answers and poke at process environments on purpose.
    files: ['tests/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    // tests/support/ is what the tests share with bench/ and scripts/, which run outside vitest:
    // plain modules that check with node:assert, never vitest or the test-only helpers.
    files: ['tests/support/**', 'bench/**', 'scripts/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vitest', 'vitest/*', '@nuxt/test-utils', '@nuxt/test-utils/*'], message: 'tests/support, bench and scripts run outside vitest.' },
          {
            group: ['**/tests/*/**', '!**/tests/support/**', '../helpers/**', '../browser/**', '../e2e/**', '../unit/**', '../nuxt/**'],
            message: 'Only tests/support/ is shared with bench and scripts.',
          },
        ],
      }],
    },
  },
)
