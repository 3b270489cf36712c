import type { UploadRow } from '../../../db/schema'
import type { AdminPublicImage } from '#shared/schemas/admin'
import type { PhoneImagesRefusal } from '#shared/media/public-image'

/** What the admin is told of a photo's public images (AdminPublicImage); null for a video. */
export function adminPublicImageOf(row: Pick<UploadRow, 'kind' | 'displayKey' | 'publicImageSource' | 'phoneImagesRefusal'>): AdminPublicImage | null {
  if (row.kind !== 'photo') return null
  const phoneImagesRefusal = row.phoneImagesRefusal as PhoneImagesRefusal | null
  if (row.displayKey) return { source: row.publicImageSource === 'phone' ? 'phone' : 'server', missing: null, phoneImagesRefusal }
  return { source: null, missing: row.publicImageSource === 'undecodable' ? 'undecodable' : 'waiting', phoneImagesRefusal }
}
