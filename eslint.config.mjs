import withNuxt from './.nuxt/eslint.config.mjs'

export default withNuxt(
  { ignores: ['db/migrations/**', 'bench/RESULTS.md'] },
  {
    // Every text a person reads lives in shared/messages/ (one file per language), never in a
    // template: a raw word in markup, or in an attribute a screen reader speaks, fails the lint.
    // eslint-plugin-vue's rule does what @intlify's no-raw-text would, with no vue-i18n messages
    // to point it at (ours are typed TS objects).
    files: ['**/*.vue'],
    rules: {
      'vue/no-bare-strings-in-template': ['error', {
        // Punctuation and symbols that carry no language.
        allowlist: ['(', ')', ',', '.', '&', '+', '-', '=', '*', '/', '#', '%', '!', '?', ':', '[', ']', '{', '}', '<', '>', '•', '·', '|', '×', '…', '—', '–', '→', '←', '✓', '❦', '0'],
        attributes: {
          '/.+/': ['title', 'aria-label', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext', 'alt', 'placeholder'],
        },
        directives: ['v-text'],
      }],
    },
  },
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
    // plain modules that check with node:assert, never vitest. Its suite/ folder holds what only a
    // vitest file may use (hooks that start and stop a suite's server).
    files: ['tests/support/**', 'bench/**', 'scripts/**'],
    ignores: ['tests/support/suite/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vitest', 'vitest/*', '@nuxt/test-utils', '@nuxt/test-utils/*'], message: 'tests/support, bench and scripts run outside vitest.' },
          {
            group: ['**/tests/*/**', '!**/tests/support/**', '**/tests/support/suite/**', '../browser/**', '../e2e/**', '../unit/**', '../nuxt/**'],
            message: 'Only tests/support/ (not its suite/ folder) is shared with bench and scripts.',
          },
        ],
      }],
    },
  },
  {
    // The venue screen's soak is a vitest file kept out of npm test (`npm run bench:soak`): it runs
    // under vitest with the browser tests' helpers, as it did in tests/browser/.
    files: ['bench/soak/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
)
