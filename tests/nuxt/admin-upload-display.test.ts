import { mountSuspended } from '@nuxt/test-utils/runtime'
import { describe, expect, it } from 'vitest'
import { AdminPreview, AdminUploadCard } from '#components'
import type { AdminUpload } from '#shared/schemas/admin'
import type { VideoDisplay } from '#shared/enums'
import { adminEn as en } from '#shared/messages/admin.en'
import { adminEs as es } from '#shared/messages/admin.es'

const video = (display: VideoDisplay | null): AdminUpload => ({
  id: 'v1', status: 'approved', kind: 'video', author: 'Tia Rosa', message: '', fileName: 'IMG_0042.MOV', contentType: 'video/quicktime',
  size: 1_000_000, width: null, height: null, durationSec: 12, url: '/media/v1.mov', thumbUrl: null, thumb2xUrl: null, publicImage: null,
  display, videoCodec: 'hevc', originalUrl: '/media/v1.mov', isCover: false, hearts: 0, commentCount: 0, momentId: null, takenAt: null,
  challengeId: null, createdAt: '2026-11-27T18:00:00.000Z', confirmedAt: '2026-11-27T18:00:01.000Z', updatedAt: '2026-11-27T18:00:01.000Z',
})

const mountCard = (display: VideoDisplay | null) => mountSuspended(AdminUploadCard, { props: { upload: video(display), selected: false, busy: false, now: Date.parse('2026-11-27T18:05:00.000Z') } })

describe('the admin\'s upload card: what guests are shown of a video', () => {
  it.each([
    ['pending', 'Cópia reproduzível em preparo'],
    ['copy', 'Convidados veem uma cópia reproduzível'],
    ['poster-only', 'Convidados veem só a imagem'],
  ] as const)('names a video\'s display state %s in the admin\'s language', async (display, words) => {
    const state = (await mountCard(display)).get('[data-testid="upload-display"]')
    expect([state.attributes('data-display'), state.text()]).toEqual([display, words])
  })

  it('says nothing for a video served as sent, nor for a photo', async () => {
    expect((await mountCard('original')).find('[data-testid="upload-display"]').exists()).toBe(false)
    expect((await mountCard(null)).find('[data-testid="upload-display"]').exists()).toBe(false)
  })

  it('has the words in English and Spanish too', () => {
    expect(en.upload.display).toEqual({ 'pending': 'Playable copy being made', 'copy': 'Guests see a playable copy', 'poster-only': 'Guests see only its picture' })
    expect(Object.keys(es.upload.display).sort()).toEqual(['copy', 'pending', 'poster-only'])
  })

  it('the preview names it too', async () => {
    const preview = await mountSuspended(AdminPreview, { props: { upload: video('poster-only') } })
    const state = preview.get('[data-testid="preview-display"]')
    expect([state.attributes('data-display'), state.text()]).toEqual(['poster-only', 'Convidados veem só a imagem'])
    const original = await mountSuspended(AdminPreview, { props: { upload: video('original') } })
    expect(original.find('[data-testid="preview-display"]').exists()).toBe(false)
  })
})
