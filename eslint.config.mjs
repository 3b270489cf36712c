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
)
