/**
 * A picked file decoded by an `<img>`: the fallback where createImageBitmap refuses a file that
 * the browser's image element still decodes (HEIC in Safari, some CMYK JPEGs). The object URL
 * goes once decoded: the element keeps its pixels for drawing.
 */
export async function decodeImageElement(file: Blob): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(file)
  try {
    const image = new Image()
    image.decoding = 'async'
    image.src = url
    await image.decode()
    return image
  }
  finally {
    URL.revokeObjectURL(url)
  }
}
