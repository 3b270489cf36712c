/**
 * The import rules `npm run check:deps` holds the code to (dependency-cruiser). Nuxt's and Nitro's
 * auto-imports are invisible here: a rule only sees an explicit `import`, which is why the plain
 * rooms (upload-client/, shared/, service-worker/) import what they use by name.
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two modules that need each other are one module, or a third is missing (type-only imports count).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circle-between-server-features',
      severity: 'error',
      comment: 'A folder of server/utils/ is one feature or one generic room (paging, archive, http, storage…): two that need each other, however long the way round, are one feature, or a third room is missing. Only explicit imports are seen: Nitro\'s auto-imports are not.',
      scope: 'folder',
      from: { path: '^server/utils/[^/]+' },
      to: { path: '^server/utils/[^/]+', circular: true },
    },
    {
      name: 'worker-reaches-no-vue',
      severity: 'error',
      comment: 'The service worker runs with no document and no Vue: nothing it imports, directly or not, may bring Vue, Nuxt\'s app or a component in.',
      from: { path: '^service-worker/' },
      to: { reachable: true, path: ['^node_modules/(vue|@vue|@vueuse|nuxt|vue-router)/', '\\.vue$', '^(composables|components|pages|plugins)/'] },
    },
    {
      name: 'upload-client-is-plain',
      severity: 'error',
      comment: 'upload-client/ is shared by the page and the service worker: no Vue, no composable, no component.',
      from: { path: '^upload-client/' },
      to: { path: ['^node_modules/(vue|@vue|@vueuse|nuxt|vue-router)/', '\\.vue$', '^(composables|components|pages|plugins)/'] },
    },
    {
      name: 'shared-is-shared',
      severity: 'error',
      comment: 'shared/ is read by the server, the pages and the worker: it imports only shared/ and packages.',
      from: { path: '^shared/' },
      to: { path: '^(server|composables|components|pages|plugins|upload-client|service-worker|app-utils)/' },
    },
    {
      name: 'shared-through-its-alias',
      severity: 'error',
      comment: 'shared/ is imported as #shared/…, one spelling for every room (a relative or ~~ path hides which room it is). db/schema.ts is read by drizzle-kit too, which knows no aliases.',
      from: { pathNot: '^(shared|db)/' },
      to: { path: '^shared/', dependencyTypesNot: ['aliased-tsconfig-paths', 'aliased-tsconfig', 'aliased'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a circle of types is still a circle to read.
    tsPreCompilationDeps: true,
    // Nuxt's own aliases (~, ~~, #shared, …), as the app and the worker build resolve them.
    tsConfig: { fileName: '.dependency-cruiser.tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.vue', '.json'],
    },
    exclude: { path: ['^\\.nuxt/', '^\\.output/'] },
  },
}
