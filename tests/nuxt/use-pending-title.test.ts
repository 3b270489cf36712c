import { mountSuspended } from '@nuxt/test-utils/runtime'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref, type Ref } from 'vue'
import { usePendingTitle } from '#imports'

type Badging = { setAppBadge?: (count?: number) => Promise<void>, clearAppBadge?: () => Promise<void> }

/*
 * The admin's icon carries what waits (the Badging API). happy-dom has no such API, and a browser
 * here sets a badge only for an installed app: the two methods are spies standing in for the
 * platform's. The tab's title, which every browser shows, is checked in browser/admin-notifications.
 */
describe('usePendingTitle', () => {
  afterEach(() => {
    delete (navigator as Badging).setAppBadge
    delete (navigator as Badging).clearAppBadge
  })

  async function mountWith(pending: Ref<number | null>) {
    await mountSuspended(defineComponent({
      setup() {
        usePendingTitle(pending, 'Moderação')
        return () => h('div')
      },
    }))
  }

  it('sets the app badge to the pending count as it changes, and clears it at zero', async () => {
    const setAppBadge = vi.fn(async (_count?: number) => undefined)
    const clearAppBadge = vi.fn(async () => undefined)
    Object.assign(navigator, { setAppBadge, clearAppBadge })
    const pending = ref<number | null>(3)
    await mountWith(pending)
    expect(setAppBadge.mock.calls).toEqual([[3]])
    pending.value = 5
    await nextTick()
    expect(setAppBadge.mock.calls).toEqual([[3], [5]])
    pending.value = 0
    await nextTick()
    expect(clearAppBadge).toHaveBeenCalledTimes(1)
    expect(setAppBadge).toHaveBeenCalledTimes(2)
  })

  it('a platform that refuses the badge (outside an installed app), or has none, throws nothing', async () => {
    const setAppBadge = vi.fn(async () => {
      throw new DOMException('not installed', 'NotAllowedError')
    })
    Object.assign(navigator, { setAppBadge })
    const pending = ref<number | null>(2)
    await mountWith(pending)
    expect(setAppBadge).toHaveBeenCalledTimes(1)
    delete (navigator as Badging).setAppBadge
    pending.value = 4
    await nextTick()
    expect(setAppBadge).toHaveBeenCalledTimes(1)
  })
})
