import type { AdminUpload } from '#shared/schemas/admin'

/** What both views of an upload (the card and the dense grid's tile) are given. */
export interface AdminUploadViewProps {
  upload: AdminUpload
  selected: boolean
  /** A call for it is on its way: its buttons wait. */
  busy: boolean
}

/**
 * What both views of an upload emit: its actions, which the
 * moderation list carries out the same way whichever view the admin chose.
 */
export interface AdminUploadActionEvents {
  approve: []
  reject: []
  delete: []
  setCover: []
  preview: []
  /** `range`: shift+click (or a tap while "select range" is on), from the last ticked upload to this one. */
  select: [{ on: boolean, range: boolean }]
}

/** What both views show of an upload and which actions they offer it: one rule, two layouts. */
export function useAdminUploadActions(upload: () => AdminUpload) {
  const t = useAdminMessages()
  const authorLabel = computed(() => upload().author || t.upload.anonymous)
  // The cover may only be an approved photo (the server refuses anything else: NOT_ELIGIBLE).
  const coverEligible = computed(() => upload().kind === 'photo' && upload().status === 'approved')

  /** The selection checkbox: its new state, and whether shift extends it into a range. */
  function selectFromCheckbox(event: MouseEvent): AdminUploadActionEvents['select'][0] {
    return { on: (event.target as HTMLInputElement).checked, range: event.shiftKey }
  }

  return { t, authorLabel, coverEligible, selectFromCheckbox }
}
