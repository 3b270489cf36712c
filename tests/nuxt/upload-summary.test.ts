import { mountSuspended } from '@nuxt/test-utils/runtime'
import { describe, expect, it } from 'vitest'
import { UploadSuccess, UploadSummary } from '#components'

type Summary = InstanceType<typeof UploadSummary>['$props']['summary']

const sending: Summary = { state: 'sending', done: 1, total: 3, failed: 0, sentBytes: 5_000_000, totalBytes: 10_000_000, percent: 50 }

describe('UploadSummary', () => {
  it('sending: says which file goes, with the percentage', async () => {
    const wrapper = await mountSuspended(UploadSummary, { props: { summary: sending, online: true, resumed: false } })
    const bar = wrapper.get('[data-testid="upload-summary"]')
    expect(bar.attributes()).toMatchObject({ 'data-state': 'sending', 'data-percent': '50', 'data-done': '1', 'data-total': '3' })
    expect(wrapper.get('.upload-summary__headline').text()).toBe('Enviando 2 de 3 · 50%')
  })

  it('stalled: no byte moved for a while, online: it says the server does not answer, not "Retomando"', async () => {
    const wrapper = await mountSuspended(UploadSummary, { props: { summary: sending, online: true, resumed: true, stalled: true } })
    expect(wrapper.get('[data-testid="upload-summary"]').attributes('data-state')).toBe('stalled')
    expect(wrapper.get('.upload-summary__headline').text()).toBe('Sem resposta do servidor · tentando de novo · 50%')
    expect(wrapper.text()).not.toContain('Retomando seus envios.')
  })

  it('offline wins over stalled: paused, with the hint that it goes on by itself', async () => {
    const wrapper = await mountSuspended(UploadSummary, { props: { summary: { ...sending, state: 'paused' }, online: false, resumed: false, stalled: true } })
    expect(wrapper.get('[data-testid="upload-summary"]').attributes('data-state')).toBe('paused')
    expect(wrapper.find('[data-testid="upload-offline"]').exists()).toBe(true)
  })
})

describe('UploadSuccess', () => {
  it.each([
    [3, 0, '3 arquivos enviados. Muito obrigado!'],
    [1, 2, '1 arquivo enviado, 2 já estavam na galeria. Muito obrigado!'],
    [2, 1, '2 arquivos enviados, 1 já estava na galeria. Muito obrigado!'],
    [0, 2, 'Os arquivos já estavam na galeria. Muito obrigado!'],
  ])('%i new and %i already in the gallery: "%s"', async (count, already, words) => {
    const wrapper = await mountSuspended(UploadSuccess, { props: { count, already, afterApproval: false } })
    expect(wrapper.get('[data-testid="upload-success-count"]').text()).toBe(words)
  })
})
