/**
 * Moves bytes a guest sent through a single signed PUT (an original, a video's poster) from their
 * staging key to the key they are served from, inside storage (S3 CopyObject then delete; local
 * rename). After it, the signed URL can only write to staging again, which nothing serves and the
 * sweeper empties: what confirm verified cannot be swapped.
 *
 * The one place bytes cross from "a signed URL may write here" to "served". Features that rewrite
 * bytes on their way in (public images made on the phone, location metadata stripped from videos)
 * hook in here, where the move doubles as their rewrite and costs no extra copy.
 *
 * True when the served key holds the bytes: moved now, or by an earlier confirm that stopped
 * before recording it (crash, timeout); false when neither key holds anything.
 */
export async function promoteStaged(key: string): Promise<boolean> {
  const store = useMediaStore()
  if (await store.move(stagedKeyOf(key), key)) return true
  return (await store.head(key)) !== null
}
