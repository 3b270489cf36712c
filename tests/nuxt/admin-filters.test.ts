import { mountSuspended } from '@nuxt/test-utils/runtime'
import { describe, expect, it } from 'vitest'
import { AdminFilters } from '#components'

const mountFilters = (props: Partial<InstanceType<typeof AdminFilters>['$props']> = {}) =>
  mountSuspended(AdminFilters, { props: { status: 'pending', kind: 'all', q: '', ...props } })

describe('AdminFilters', () => {
  it('offers the four statuses in order, pressing only the current one, with their counts', async () => {
    const wrapper = await mountFilters({ status: 'approved', counts: { pending: 3, approved: 12 } })
    const buttons = wrapper.findAll('[data-testid^="status-"]')
    expect(buttons.map(button => button.attributes('data-testid'))).toEqual(['status-pending', 'status-approved', 'status-rejected', 'status-all'])
    expect(buttons.map(button => button.attributes('aria-pressed'))).toEqual(['false', 'true', 'false', 'false'])
    expect(buttons.map(button => button.text())).toEqual(['Pendentes 3', 'Aprovados 12', 'Recusados', 'Todos'])
  })

  it('asks for another status, kind or search text without changing its own', async () => {
    const wrapper = await mountFilters()
    await wrapper.get('[data-testid="status-rejected"]').trigger('click')
    await wrapper.get('[data-testid="filter-kind"]').setValue('video')
    await wrapper.get('[data-testid="search"]').setValue('maria')
    expect(wrapper.emitted('update:status')).toEqual([['rejected']])
    expect(wrapper.emitted('update:kind')).toEqual([['video']])
    expect(wrapper.emitted('update:q')).toEqual([['maria']])
    expect(wrapper.get('[data-testid="status-pending"]').attributes('aria-pressed')).toBe('true')
  })

  it('shows the kind and search text it is given, and bounds the search as the server does', async () => {
    const wrapper = await mountFilters({ kind: 'photo', q: 'João' })
    const kind = wrapper.get<HTMLSelectElement>('[data-testid="filter-kind"]')
    expect(kind.element.value).toBe('photo')
    expect(kind.findAll('option').map(option => [option.attributes('value'), option.text()])).toEqual([
      ['all', 'Fotos e vídeos'], ['photo', 'Só fotos'], ['video', 'Só vídeos'],
    ])
    const search = wrapper.get<HTMLInputElement>('[data-testid="search"]')
    expect(search.element.value).toBe('João')
    expect(search.attributes('maxlength')).toBe('200')
  })

  it('offers the uploads\' order only when given one, and asks for another without changing its own', async () => {
    expect((await mountFilters()).find('[data-testid="filter-sort"]').exists()).toBe(false)
    const wrapper = await mountFilters({ sort: 'newest' })
    const sort = wrapper.get<HTMLSelectElement>('[data-testid="filter-sort"]')
    expect(sort.findAll('option').map(option => [option.attributes('value'), option.text()])).toEqual([
      ['newest', 'Mais recentes'], ['hearts', 'Mais corações'],
    ])
    await sort.setValue('hearts')
    expect(wrapper.emitted('update:sort')).toEqual([['hearts']])
  })
})
