import { beforeAll } from 'vitest'

// The test environment's browser asks for en-US and is on no admin page. These component tests
// read the Portuguese texts, guest and admin: the switcher's cookie says Portuguese before the
// app starts, and the admin's texts load beside the guest's.
document.cookie = 'lang=pt-BR; path=/'

beforeAll(async () => {
  const { loadLocaleMessages } = await import('~/app-utils/locale-messages')
  await loadLocaleMessages('pt-BR', true)
})
