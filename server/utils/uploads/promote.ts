import { useMediaStore } from '../storage/use-media-store'
/**
 * Moves bytes a guest sent through a single signed PUT (an original, a video's poster) from their
 * staging key to the key they are served from, inside storage (S3 CopyObject then delete; local
 * rename). After it, the signed URL can only write to staging again, which nothing serves and the
 * sweeper empties: what confirm verified cannot be swapped.
 *
 * Bytes cross from "a signed URL may write here" to "served" only through the store's `promote`:
 * a rewrite on the way in (a video's location blanked, which confirm asks for) is the move itself
 * on a driver whose move is a copy, and costs no extra copy.
 *
 * True when the served key holds the bytes: moved now, or by an earlier confirm that stopped
 * before recording it (crash, timeout); false when neither key holds anything.
 */
export async function promoteStaged(key: string): Promise<boolean> {
  return (await useMediaStore().promote(key)).found
}
