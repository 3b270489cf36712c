import { describe, expect, it } from 'vitest'
import { S3_PART_LIMITS, planPatchedCopy, type PartLimits, type PlannedPart } from '../../server/utils/storage/s3/part-plan'

const MiB = 1024 * 1024
const patch = (offset: number, length = 38) => ({ offset, bytes: new Uint8Array(length) })

/** Where a plan breaks S3's rules or its own (contiguous, every patch inside an uploaded part). */
function violations(size: number, patches: { offset: number, bytes: Uint8Array }[], parts: PlannedPart[], limits: PartLimits = S3_PART_LIMITS): string[] {
  const found: string[] = []
  if (parts[0]?.start !== 0 || parts.at(-1)?.end !== size) found.push('does not cover the object')
  parts.forEach((part, i) => {
    const length = part.end - part.start
    if (length <= 0) found.push(`part ${i + 1} is empty`)
    if (i > 0 && part.start !== parts[i - 1]!.end) found.push(`part ${i + 1} does not follow on`)
    if (i < parts.length - 1 && length < limits.minPart) found.push(`part ${i + 1} is ${length} bytes, under the minimum`)
    if (length > (part.kind === 'copy' ? limits.maxCopyPart : limits.maxUploadPart)) found.push(`part ${i + 1} is too long`)
  })
  for (const { offset, bytes } of patches) {
    const holder = parts.find(part => part.start <= offset && offset + bytes.length <= part.end)
    if (holder?.kind !== 'upload') found.push(`the patch at ${offset} is not inside an uploaded part`)
  }
  return found
}

function expectValid(size: number, patches: { offset: number, bytes: Uint8Array }[], parts: PlannedPart[], limits: PartLimits = S3_PART_LIMITS) {
  expect(violations(size, patches, parts, limits)).toEqual([])
}

describe('planPatchedCopy', () => {
  it('copies a 1 GiB video in the storage and uploads 5 MiB around a moov at its end', () => {
    const size = 1024 * MiB
    const patches = [patch(size - 3000)]
    const parts = planPatchedCopy(size, patches)
    // The untouched gigabyte in four even copies of at most 256 MiB; the last part may be short.
    expect(parts.map(part => part.kind)).toEqual(['copy', 'copy', 'copy', 'copy', 'upload'])
    expect(parts.at(-1)).toEqual({ kind: 'upload', start: size - 3000, end: size })
    expectValid(size, patches, parts)
  })

  it('uploads the first 5 MiB for a moov at the start and copies the rest', () => {
    const size = 50 * MiB
    const patches = [patch(2000), patch(2100, 50)]
    const parts = planPatchedCopy(size, patches)
    expect(parts).toEqual([{ kind: 'upload', start: 0, end: 5 * MiB }, { kind: 'copy', start: 5 * MiB, end: size }])
    expectValid(size, patches, parts)
  })

  it('widens a patch in the middle to a whole part and keeps the gaps on both sides copyable', () => {
    const size = 50 * MiB
    const patches = [patch(20 * MiB)]
    const parts = planPatchedCopy(size, patches)
    expect(parts).toEqual([
      { kind: 'copy', start: 0, end: 20 * MiB },
      { kind: 'upload', start: 20 * MiB, end: 25 * MiB },
      { kind: 'copy', start: 25 * MiB, end: size },
    ])
  })

  it('lets patches closer than a part share one uploaded range, and splits an uploaded range too long for memory', () => {
    const size = 200 * MiB
    const patches = [patch(10 * MiB), patch(14 * MiB), patch(18 * MiB), patch(22 * MiB), patch(26 * MiB), patch(30 * MiB)]
    const parts = planPatchedCopy(size, patches)
    expectValid(size, patches, parts)
    expect(parts.filter(part => part.kind === 'upload').length).toBe(2)
  })

  it('meets S3\'s rules for any set of patches (random sizes and places, fixed seed)', () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const limits = { minPart: 5 * MiB, maxCopyPart: 12 * MiB, maxUploadPart: 10 * MiB }
    for (let round = 0; round < 2000; round++) {
      const size = Math.floor(10 * MiB + random() * 200 * MiB)
      const patches: { offset: number, bytes: Uint8Array }[] = []
      let offset = 0
      const count = Math.floor(random() * 8)
      for (let i = 0; i < count; i++) {
        offset += Math.floor(random() * (random() < 0.5 ? 4 * MiB : 60 * MiB))
        const length = 1 + Math.floor(random() * 4000)
        if (offset + length > size) break
        patches.push(patch(offset, length))
        offset += length
      }
      const found = violations(size, patches, planPatchedCopy(size, patches, limits), limits)
      if (found.length) expect({ size, patches: patches.map(p => [p.offset, p.bytes.length]), found }).toBeNull()
    }
  })

  it('refuses overlapping patches, patches past the end and limits that cannot split', () => {
    expect(() => planPatchedCopy(20 * MiB, [patch(100, 50), patch(120)])).toThrow(RangeError)
    expect(() => planPatchedCopy(20 * MiB, [patch(20 * MiB - 10)])).toThrow(RangeError)
    expect(() => planPatchedCopy(20 * MiB, [], { minPart: 5 * MiB, maxCopyPart: 6 * MiB, maxUploadPart: 16 * MiB })).toThrow(RangeError)
  })
})
