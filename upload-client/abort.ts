/** The guest cancelled the file (or a sibling part failed): what every wait and request rejects with. */
export function abortError(): DOMException {
  return new DOMException('Aborted', 'AbortError')
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}
