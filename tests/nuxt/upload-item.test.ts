import { mountSuspended } from '@nuxt/test-utils/runtime'
import { nextTick } from 'vue'
import { describe, expect, it, vi } from 'vitest'
import { UploadItem } from '#components'

type Item = InstanceType<typeof UploadItem>['$props']['item']

/** A queue row as the upload page holds it, 40 % of a 2.5 MiB photo sent unless a test says otherwise. */
function queueItem(patch: Partial<Item> = {}): Item {
  return {
    key: 'local-1', fileName: 'IMG_0001.JPG', contentType: 'image/jpeg', kind: 'photo', size: 2_621_440,
    durationSec: null, author: 'Ana', message: '', addedAt: 0, submitted: true, uploadId: 'u1',
    uploadType: 'single', partsDone: [], done: false, status: null, error: null, errorFinal: false,
    file: null, phase: 'sending', sentBytes: 1_048_576, thumbUrl: null,
    ...patch,
  }
}

const mountItem = (patch: Partial<Item> = {}) => mountSuspended(UploadItem, { props: { item: queueItem(patch) } })

describe('UploadItem', () => {
  it('shows a file being sent with its state, phase, name, size and progress in its test hooks', async () => {
    const wrapper = await mountItem()
    const row = wrapper.get('[data-testid="upload-item"]')
    expect(row.attributes()).toMatchObject({ 'data-state': 'uploading', 'data-phase': 'sending', 'data-name': 'IMG_0001.JPG' })
    expect(wrapper.get('.upload-item__name').text()).toBe('IMG_0001.JPG')
    expect(wrapper.get('.upload-item__meta').text()).toBe('2,5 MB · Enviando · 40%')
    const progress = wrapper.get('progress')
    expect(progress.attributes('data-progress')).toBe('40')
    expect(progress.attributes('aria-label')).toBe('Progresso de IMG_0001.JPG')
    expect(wrapper.find('[data-testid="upload-cancel"]').attributes('aria-label')).toBe('Cancelar IMG_0001.JPG')
    expect(wrapper.find('.upload-item__error').exists()).toBe(false)
  })

  it.each([
    ['waiting', 'queued', 'Pronto para enviar'],
    ['queued', 'queued', 'Na fila'],
    ['paused', 'paused', 'Pausado, sem conexão'],
    ['retrying', 'uploading', 'Tentando de novo…'],
    ['finishing', 'uploading', 'Finalizando…'],
  ] as const)('names the %s phase (state %s) in words and can still be cancelled', async (phase, state, words) => {
    const wrapper = await mountItem({ phase })
    expect(wrapper.get('[data-testid="upload-item"]').attributes()).toMatchObject({ 'data-state': state, 'data-phase': phase })
    expect(wrapper.get('.upload-item__status').text()).toBe(words)
    expect(wrapper.get('.upload-item__meta').text().includes('%')).toBe(state === 'uploading' || state === 'paused')
    expect(wrapper.find('[data-testid="upload-cancel"]').exists()).toBe(true)
  })

  it('offline, a file on its way shows paused with the percentage it really reached, never a full bar', async () => {
    const wrapper = await mountSuspended(UploadItem, { props: { item: queueItem({ phase: 'sending', sentBytes: 1_572_864 }), online: false } })
    expect(wrapper.get('[data-testid="upload-item"]').attributes()).toMatchObject({ 'data-state': 'paused', 'data-phase': 'sending' })
    expect(wrapper.get('.upload-item__meta').text()).toBe('2,5 MB · Pausado, sem conexão · 60%')
    expect(wrapper.get('progress').attributes('data-progress')).toBe('60')
    // Every byte handed over but not yet confirmed: still not 100.
    const sent = await mountSuspended(UploadItem, { props: { item: queueItem({ phase: 'finishing', sentBytes: 2_621_440 }), online: false } })
    expect(sent.get('[data-testid="upload-item"]').attributes('data-state')).toBe('paused')
    expect(sent.get('progress').attributes('data-progress')).toBe('99')
  })

  it('shows a sent file as done, full, with no button left to press', async () => {
    const wrapper = await mountItem({ phase: 'done', done: true, sentBytes: 0, status: 'approved' })
    expect(wrapper.get('[data-testid="upload-item"]').attributes('data-state')).toBe('done')
    expect(wrapper.get('.upload-item__status').text()).toBe('Enviado')
    expect(wrapper.get('progress').attributes('data-progress')).toBe('100')
    expect(wrapper.findAll('button')).toHaveLength(0)
    expect(wrapper.find('.upload-item__done').exists()).toBe(true)
  })

  it('shows why a file failed and offers to try again or cancel, naming the file', async () => {
    const wrapper = await mountItem({ phase: 'error', error: 'O servidor recusou o arquivo.' })
    expect(wrapper.get('[data-testid="upload-item"]').attributes('data-state')).toBe('error')
    expect(wrapper.get('.upload-item__status').text()).toBe('Não foi enviado')
    expect(wrapper.get('.upload-item__error').text()).toBe('O servidor recusou o arquivo.')
    const buttons = wrapper.findAll('button')
    expect(buttons.map(button => button.attributes('aria-label'))).toEqual(['Tentar enviar IMG_0001.JPG de novo', 'Cancelar IMG_0001.JPG'])

    await buttons[0]!.trigger('click')
    await buttons[1]!.trigger('click')
    expect(wrapper.emitted('retry')).toEqual([['local-1']])
    expect(wrapper.emitted('cancel')).toEqual([['local-1']])
  })

  it('offers no retry for a file that can never be sent', async () => {
    const wrapper = await mountItem({ phase: 'error', error: 'É grande demais.', errorFinal: true })
    expect(wrapper.findAll('button').map(button => button.attributes('data-testid'))).toEqual(['upload-cancel'])
  })

  it('shows the thumbnail when there is one, and marks a video as such', async () => {
    const photo = await mountItem({ thumbUrl: 'blob:http://localhost/thumb' })
    expect(photo.get('.upload-item__thumb img').attributes('src')).toBe('blob:http://localhost/thumb')
    expect(photo.find('.upload-item__badge').exists()).toBe(false)

    const video = await mountItem({ kind: 'video', contentType: 'video/mp4', durationSec: 12 })
    expect(video.find('.upload-item__thumb img').exists()).toBe(false)
    expect(video.get('.upload-item__badge').text()).toBe('Vídeo')
  })

  it('shows a file whose bytes were already in the gallery as a duplicate: full, nothing to press', async () => {
    const wrapper = await mountItem({ phase: 'duplicate', done: true, duplicate: true, sentBytes: 2_621_440 })
    expect(wrapper.get('[data-testid="upload-item"]').attributes()).toMatchObject({ 'data-state': 'duplicate', 'data-phase': 'duplicate' })
    expect(wrapper.get('progress').attributes('data-progress')).toBe('100')
    expect(wrapper.find('[data-testid="upload-remove"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="upload-cancel"]').exists()).toBe(false)
  })

  it('offers "Remover" while the undo window lasts, in place of the check mark, and takes it away when it closes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const until = Date.now() + 5_000
      const wrapper = await mountItem({ phase: 'done', done: true, undo: { token: 't', windowSec: 5, until } })
      const remove = wrapper.get('[data-testid="upload-remove"]')
      expect(remove.attributes('aria-label')).toBe('Remover IMG_0001.JPG')
      expect(wrapper.find('.upload-item__done').exists()).toBe(false)
      await remove.trigger('click')
      expect(wrapper.emitted('remove')).toEqual([['local-1']])

      vi.advanceTimersByTime(5_001)
      await nextTick()
      expect(wrapper.find('[data-testid="upload-remove"]').exists()).toBe(false)
      expect(wrapper.find('.upload-item__done').exists()).toBe(true)
    }
    finally {
      vi.useRealTimers()
    }
  })
})
