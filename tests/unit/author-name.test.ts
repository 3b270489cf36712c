import { describe, expect, it } from 'vitest'
import { AUTHOR_MAX_LENGTH } from '../../shared/limits'
import { adminGuestbookPatchSchema, guestbookPostSchema } from '../../shared/schemas/guestbook'
import { adminUploadPatchSchema } from '../../shared/schemas/admin'
import { authorNameSchema, foldLineBreaks } from '../../shared/schemas/common'
import { guestUploadPatchSchema, initUploadSchema } from '../../shared/schemas/upload'

describe('an author\'s name is one line', () => {
  it('folds every line and paragraph break to a space: LF, CR, CR LF, VT, FF, NEL, U+2028, U+2029', () => {
    for (const separator of ['\n', '\r', '\r\n', '\v', '\f', '\u0085', '\u2028', '\u2029']) {
      expect(authorNameSchema.parse(`Tia${separator}Lúcia`), JSON.stringify(separator)).toBe('Tia Lúcia')
    }
  })

  it('folds a run of breaks with the spaces around them to one space, and trims the ends', () => {
    expect(foldLineBreaks('Ana \r\n\n  Maria\u2028\u2029Souza')).toBe('Ana Maria Souza')
    expect(authorNameSchema.parse('\n\n  Ana\nMaria  \r\n')).toBe('Ana Maria')
    expect(authorNameSchema.parse('\n\u2029\r\n')).toBe('')
  })

  it('strips invisible characters first, so a break hidden between them still folds once', () => {
    expect(authorNameSchema.parse('Ana\n\u200B\nMaria')).toBe('Ana Maria')
    expect(authorNameSchema.parse('Ana\u202E\nMaria')).toBe('Ana Maria')
  })

  it('counts the folded name against the limit, and still refuses other control characters', () => {
    const name = `${'a'.repeat(40)}\r\n${'b'.repeat(39)}`
    expect(authorNameSchema.parse(name)).toHaveLength(AUTHOR_MAX_LENGTH)
    expect(authorNameSchema.safeParse(`${name}b`).success).toBe(false)
    expect(authorNameSchema.safeParse('Ana\tMaria').success).toBe(false)
    expect(authorNameSchema.safeParse('Ana\u0000').success).toBe(false)
    expect(authorNameSchema.safeParse('Ana\uD800').success).toBe(false)
  })

  it('is the rule of every author field, guest\'s and admin\'s, while a message keeps its lines', () => {
    expect(initUploadSchema.parse({ fileName: 'a.jpg', contentType: 'image/jpeg', size: 1, author: 'Ana\nMaria', message: 'Oi\nTchau' }))
      .toMatchObject({ author: 'Ana Maria', message: 'Oi\nTchau' })
    expect(guestUploadPatchSchema.parse({ author: 'Ana\u2028Maria', message: 'a\nb' })).toEqual({ author: 'Ana Maria', message: 'a\nb' })
    expect(adminUploadPatchSchema.parse({ author: 'Ana\r\nMaria' })).toEqual({ author: 'Ana Maria' })
    expect(guestbookPostSchema.parse({ author: 'Ana\nMaria', text: 'Parabéns\n\nAmo vocês' })).toEqual({ author: 'Ana Maria', text: 'Parabéns\n\nAmo vocês' })
    expect(adminGuestbookPatchSchema.parse({ author: 'Ana\u2029Maria' })).toEqual({ author: 'Ana Maria' })
  })
})
