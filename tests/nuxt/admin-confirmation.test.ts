import { mountSuspended } from '@nuxt/test-utils/runtime'
import { describe, expect, it } from 'vitest'
import { AdminConfirmDialog } from '#components'

describe('the moderation list\'s confirmation (useAdminConfirmation)', () => {
  it('asks nothing until asked; a delete names one upload or the selection, in red', () => {
    const confirmation = useAdminConfirmation()
    expect(confirmation.dialog.value).toBeNull()

    confirmation.askDelete(['u1'], false)
    expect(confirmation.dialog.value).toEqual({
      title: 'Excluir este envio?',
      body: 'O arquivo é apagado para sempre e some da galeria. Isso não pode ser desfeito.',
      confirmLabel: 'Excluir',
      tone: 'danger',
    })
    confirmation.askDelete(['u1', 'u2', 'u3'], true)
    expect(confirmation.dialog.value).toMatchObject({ title: 'Excluir 3 envios?', tone: 'danger' })
    expect(confirmation.question.value).toEqual({ kind: 'delete', ids: ['u1', 'u2', 'u3'], bulk: true })
  })

  it('"approve what is on screen" names exactly the uploads it was given, in the approve colour', () => {
    const confirmation = useAdminConfirmation()
    confirmation.askApprove(['a', 'b', 'c', 'd', 'e', 'f'])
    expect(confirmation.dialog.value).toEqual({
      title: 'Aprovar 6 envios?',
      body: 'Eles aparecem na galeria e no telão agora mesmo.',
      confirmLabel: 'Aprovar',
      tone: 'approve',
    })
    confirmation.askApprove(['a'])
    expect(confirmation.dialog.value?.title).toBe('Aprovar 1 envio?')
  })

  it('one question at a time: a new one replaces the open one, an empty one asks nothing', () => {
    const confirmation = useAdminConfirmation()
    confirmation.askApprove(['a', 'b'])
    confirmation.askDelete(['x'], false)
    expect(confirmation.question.value).toEqual({ kind: 'delete', ids: ['x'], bulk: false })
    confirmation.askApprove([])
    expect(confirmation.question.value).toEqual({ kind: 'delete', ids: ['x'], bulk: false })
  })

  it('the confirmed question is handed back once and the dialog closes; a cancel hands back nothing', () => {
    const confirmation = useAdminConfirmation()
    const shown = ['a', 'b']
    confirmation.askApprove(shown)
    // The list moving on after the question was asked does not change what it approves.
    shown.push('c')
    expect(confirmation.answer()).toEqual({ kind: 'approve', ids: ['a', 'b'] })
    expect(confirmation.dialog.value).toBeNull()
    expect(confirmation.answer()).toBeNull()

    confirmation.askDelete(['a'], false)
    confirmation.cancel()
    expect(confirmation.dialog.value).toBeNull()
    expect(confirmation.answer()).toBeNull()
  })
})

describe('AdminConfirmDialog', () => {
  const props = { open: false, title: 'Aprovar 6 envios?', body: 'Corpo', confirmLabel: 'Aprovar', cancelLabel: 'Cancelar' }

  it('colours its confirm button as what it does: red by default, green for an approval', async () => {
    const danger = await mountSuspended(AdminConfirmDialog, { props })
    expect(danger.get('[data-testid="confirm"]').classes()).toContain('admin-button--danger-solid')
    const approve = await mountSuspended(AdminConfirmDialog, { props: { ...props, tone: 'approve' as const } })
    expect(approve.get('[data-testid="confirm"]').classes()).toContain('admin-button--approve')
    expect(approve.get('[data-testid="confirm"]').classes()).not.toContain('admin-button--danger-solid')
  })

  it('says yes or no through its two buttons', async () => {
    const wrapper = await mountSuspended(AdminConfirmDialog, { props })
    await wrapper.get('[data-testid="confirm"]').trigger('click')
    await wrapper.get('[data-testid="confirm-cancel"]').trigger('click')
    expect(wrapper.emitted('confirm')).toHaveLength(1)
    expect(wrapper.emitted('cancel')).toHaveLength(1)
  })
})
