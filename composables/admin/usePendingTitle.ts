import type { MaybeRefOrGetter } from 'vue'

type BadgeNavigator = Navigator & { setAppBadge?: (count?: number) => Promise<void>, clearAppBadge?: () => Promise<void> }

/**
 * The browser tab tells what waits for moderation ("(3) Moderação"), and an installed admin's
 * icon carries the count (the Badging API, where the platform has it).
 */
export function usePendingTitle(pending: MaybeRefOrGetter<number | null | undefined>, section: MaybeRefOrGetter<string>) {
  const t = useAdminMessages()
  const count = computed(() => toValue(pending) ?? 0)
  useHead({ title: computed(() => t.notifications.tabTitle(count.value, toValue(section))) })
  watch(count, (now) => {
    const badging = navigator as BadgeNavigator
    const done = now > 0 ? badging.setAppBadge?.(now) : badging.clearAppBadge?.()
    // Refused outside an installed app on some platforms: the title still says it.
    done?.catch(() => undefined)
  }, { immediate: import.meta.client })
}
