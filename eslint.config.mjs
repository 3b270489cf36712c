import withNuxt from './.nuxt/eslint.config.mjs'

export default withNuxt({
  ignores: ['db/migrations/**', 'bench/RESULTS.md'],
})
