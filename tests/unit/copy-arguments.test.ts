import { describe, expect, it } from 'vitest'
import { copyArguments } from '../../server/utils/uploads/copy-arguments'

describe('the display copy\'s ffmpeg arguments', () => {
  it('read the input with the demuxer of the container the server found, from the local file only', () => {
    const mp4 = copyArguments('/scratch/original', '/scratch/copy.mp4', { hdr: false, container: 'mp4' })
    const webm = copyArguments('/scratch/original', '/scratch/copy.mp4', { hdr: false, container: 'matroska' })
    const input = (args: string[]) => args.slice(args.indexOf('-i') - 4, args.indexOf('-i') + 2)
    expect(input(mp4)).toEqual(['-protocol_whitelist', 'file', '-f', 'mov', '-i', '/scratch/original'])
    expect(input(webm)).toEqual(['-protocol_whitelist', 'file', '-f', 'matroska', '-i', '/scratch/original'])
    expect(mp4.filter(arg => arg === '-i')).toHaveLength(1)
  })

  it('tone-map only an HDR source', () => {
    expect(copyArguments('in', 'out', { hdr: true, container: 'mp4' }).join(' ')).toContain('tonemap=hable')
    expect(copyArguments('in', 'out', { hdr: false, container: 'mp4' }).join(' ')).not.toContain('tonemap')
  })
})
