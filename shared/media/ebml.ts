/**
 * The few EBML primitives (Matroska, WebM) the readers share: variable-length integers, element
 * headers, and the two number types they read. Over bytes in memory; an element's size that runs
 * past `end` is unreadable (null), and a size of all ones (a live recording's) runs to `end`.
 */

export interface Element { id: number, start: number, dataStart: number, dataEnd: number, unknownSize: boolean }

export function readVint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number, length: number, allOnes: boolean } | null {
  const first = bytes[at]
  if (first === undefined || first === 0) return null
  const length = Math.clz32(first) - 23
  if (at + length > bytes.length) return null
  let value = keepMarker ? first : first & (0xFF >> length)
  let allOnes = value === (0xFF >> length)
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!
    if (bytes[at + i] !== 0xFF) allOnes = false
  }
  return { value, length, allOnes }
}

export function readElement(bytes: Uint8Array, at: number, end: number): Element | null {
  const id = readVint(bytes, at, true)
  if (!id || id.length > 4) return null
  const size = readVint(bytes, at + id.length, false)
  if (!size) return null
  const dataStart = at + id.length + size.length
  const dataEnd = size.allOnes ? end : dataStart + size.value
  if (dataEnd > end) return null
  return { id: id.value, start: at, dataStart, dataEnd, unknownSize: size.allOnes }
}

export function readUint(bytes: Uint8Array, element: Element): number {
  let value = 0
  for (let i = element.dataStart; i < element.dataEnd; i++) value = value * 256 + bytes[i]!
  return value
}

export function readFloat(bytes: Uint8Array, element: Element): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset + element.dataStart, element.dataEnd - element.dataStart)
  if (view.byteLength === 4) return view.getFloat32(0)
  if (view.byteLength === 8) return view.getFloat64(0)
  return null
}
