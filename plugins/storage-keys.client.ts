import { moveLegacyKeys } from '~/app-utils/storage-keys'

/** Before any page reads the browser's storage: values kept under an earlier version's keys move to today's. */
export default defineNuxtPlugin({
  name: 'storage-keys',
  enforce: 'pre',
  setup() {
    try {
      moveLegacyKeys(localStorage)
    }
    catch { /* storage disabled: nothing was kept */ }
  },
})
