import { describe, expect, it } from 'vitest'
import { manifestHeader, manifestLine } from '../../server/utils/admin/export-manifest'
import { csvCell, csvLine } from '../../server/utils/archive/csv'
import { archiveEntryName } from '../../server/utils/archive/entry-name'
import { archiveFolderName, archiveFolderNames } from '../../server/utils/archive/folder-name'

const base = { id: 'Ab3_-xYz', createdAt: new Date('2026-11-22T18:04:05.123Z'), storageKey: 'orig/Ab3_-xYz-tok.jpg' }

describe('archive entry names', () => {
  it('date, UTC time, author and id, with the stored extension', () => {
    expect(archiveEntryName({ ...base, author: 'Maria' })).toBe('2026-11-22_1804_maria_Ab3_-xYz.jpg')
    expect(archiveEntryName({ ...base, author: 'João & Zoë Conceição', storageKey: 'media/x.mov' })).toBe('2026-11-22_1804_joao-zoe-conceicao_Ab3_-xYz.mov')
  })

  it('never carries a path, a parent reference or a control character', () => {
    const hostile = ['../../etc/passwd', '..\\..\\win.ini', '/abs', 'a\u0000b\nc\u202Ed', '..', '   ', '', '😀', 'C:\\x']
    const names = hostile.map(author => archiveEntryName({ ...base, author }))
    for (const name of names) {
      expect(name).toMatch(/^\d{4}-\d{2}-\d{2}_\d{4}_[a-z0-9-]+_[\w-]+\.[a-z0-9]+$/)
      expect(name).not.toContain('..')
    }
    expect(archiveEntryName({ ...base, author: '' })).toBe('2026-11-22_1804_convidado_Ab3_-xYz.jpg')
    expect(archiveEntryName({ ...base, author: 'x'.repeat(200) }).length).toBeLessThan(120)
  })

  it('is unique per upload', () => {
    const names = new Set(['a', 'b', 'c'].map(id => archiveEntryName({ ...base, id, author: 'Same' })))
    expect(names.size).toBe(3)
  })
})

describe('manifest CSV', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"')
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n')
  })

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"')
    expect(csvCell('+1')).toBe('\'+1')
    expect(csvCell('-2+3')).toBe('\'-2+3')
    expect(csvCell('@SUM(A1)')).toBe('\'@SUM(A1)')
    expect(csvCell('\tx')).toBe('\'\tx')
    expect(csvCell('a=b')).toBe('a=b')
  })

  it('starts with a byte order mark and the column names, in English for an English event', () => {
    expect(manifestHeader('en')).toBe('\uFEFFid,author,message,kind,createdAt,file,originalFileName,metadata,hearts,comments,moment,display\r\n')
    expect(manifestLine({ ...base, author: 'Ana', message: 'Oi, tudo?', kind: 'photo', fileName: 'IMG 1.JPG' }, 'f.jpg', 'en', { hearts: 12, commentCount: 3 }))
      .toBe('Ab3_-xYz,Ana,"Oi, tudo?",photo,2026-11-22T18:04:05.123Z,f.jpg,IMG 1.JPG,"original, as sent",12,3,,\r\n')
    expect(manifestLine({ ...base, author: 'Ana', message: '', kind: 'video', fileName: 'V.MP4' }, 'v.mp4', 'en'))
      .toBe('Ab3_-xYz,Ana,,video,2026-11-22T18:04:05.123Z,v.mp4,V.MP4,recorded position removed,0,0,,\r\n')
  })

  it('names what guests were shown instead of a video\'s original: its H.264 copy, or only its poster', () => {
    const video = { ...base, author: 'Ana', message: '', kind: 'video' as const, fileName: 'IMG_0042.MOV' }
    expect(manifestLine({ ...video, display: 'copy' }, 'v.mov', 'en'))
      .toBe('Ab3_-xYz,Ana,,video,2026-11-22T18:04:05.123Z,v.mov,IMG_0042.MOV,recorded position removed,0,0,,guests saw an H.264 copy (the original is here)\r\n')
    expect(manifestLine({ ...video, display: 'poster-only' }, 'v.mov', 'pt-BR'))
      .toBe('Ab3_-xYz,Ana,,video,2026-11-22T18:04:05.123Z,v.mov,IMG_0042.MOV,localização da gravação removida,0,0,,convidados viram só o pôster (o original está aqui)\r\n')
    expect(manifestLine({ ...video, display: 'original' }, 'v.mov', 'es').endsWith(',0,0,,\r\n')).toBe(true)
  })

  it('speaks the event\'s language: Portuguese and Spanish headings and notes', () => {
    expect(manifestHeader('pt-BR')).toBe('\uFEFFid,autor,mensagem,tipo,enviado em,arquivo,nome original,metadados,corações,comentários,momento,exibição\r\n')
    expect(manifestHeader('es')).toBe('\uFEFFid,autor,mensaje,tipo,enviado el,archivo,nombre original,metadatos,corazones,comentarios,momento,visualización\r\n')
    expect(manifestLine({ ...base, author: 'Ana', message: '', kind: 'video', fileName: 'V.MP4' }, 'v.mp4', 'pt-BR'))
      .toBe('Ab3_-xYz,Ana,,video,2026-11-22T18:04:05.123Z,v.mp4,V.MP4,localização da gravação removida,0,0,,\r\n')
    expect(manifestLine({ ...base, author: 'Ana', message: '', kind: 'photo', fileName: 'A.JPG' }, 'a.jpg', 'es'))
      .toBe('Ab3_-xYz,Ana,,photo,2026-11-22T18:04:05.123Z,a.jpg,A.JPG,"original, tal como se envió",0,0,,\r\n')
  })

  it('names the moment in its last column, as the couple typed it (formulas defused)', () => {
    expect(manifestLine({ ...base, author: 'Ana', message: '', kind: 'photo', fileName: 'A.JPG' }, 'Cerimônia/a.jpg', 'pt-BR', { hearts: 1, commentCount: 0 }, 'Cerimônia'))
      .toBe('Ab3_-xYz,Ana,,photo,2026-11-22T18:04:05.123Z,Cerimônia/a.jpg,A.JPG,"original, como foi enviado",1,0,Cerimônia,\r\n')
    expect(manifestLine({ ...base, author: 'Ana', message: '', kind: 'photo', fileName: 'A.JPG' }, 'a.jpg', 'en', undefined, '=1+1')).toMatch(/,'=1\+1,\r\n$/)
  })
})

describe('moment folders in the archive', () => {
  it('keeps the couple\'s words, accents included, and nothing an unzip tool reads as a path', () => {
    expect(archiveFolderName('Cerimônia')).toBe('Cerimônia')
    expect(archiveFolderName('Festa & Dança 💃')).toBe('Festa & Dança 💃')
    expect(archiveFolderName('../../etc')).toBe('-..-etc')
    expect(archiveFolderName('a/b\\c:d*e?f"g<h>i|j')).toBe('a-b-c-d-e-f-g-h-i-j')
    expect(archiveFolderName('..')).toBe('-')
    expect(archiveFolderName(' .oculto. ')).toBe('oculto')
    expect(archiveFolderName('x'.repeat(200))).toHaveLength(80)
  })

  it('gives names that clean up alike, or differ only in case, folders of their own', () => {
    const folders = archiveFolderNames([{ id: '1', name: 'A/B' }, { id: '2', name: 'A-B' }, { id: '3', name: 'a-b' }, { id: '4', name: 'Festa' }])
    expect([...folders.values()]).toEqual(['A-B', 'A-B (2)', 'a-b (3)', 'Festa'])
  })
})
