import { describe, expect, it } from 'vitest'
import { phoneCopyMaxBytes } from '../../shared/media/phone-copy'
import { copySize } from '../../upload-client/display-copy'

describe('the phone\'s display copy', () => {
  it('is at most 1280 px on its long side, in the original\'s proportions, with even sides', () => {
    expect(copySize(1920, 1080)).toEqual({ width: 1280, height: 720 })
    expect(copySize(1080, 1920)).toEqual({ width: 720, height: 1280 })
    expect(copySize(3840, 2160)).toEqual({ width: 1280, height: 720 })
    expect(copySize(640, 360)).toEqual({ width: 640, height: 360 })
    expect(copySize(1281, 721)).toEqual({ width: 1280, height: 720 })
    expect(copySize(1279, 719)).toEqual({ width: 1280, height: 720 })
  })

  it('may hold 8 Mbit/s for the video\'s length and a second more, plus 4 MiB', () => {
    expect(phoneCopyMaxBytes(10)).toBe(4 * 1024 * 1024 + 11_000_000)
    expect(phoneCopyMaxBytes(0)).toBe(4 * 1024 * 1024 + 2_000_000)
    expect(phoneCopyMaxBytes(2.5)).toBe(4 * 1024 * 1024 + 4_000_000)
  })
})
