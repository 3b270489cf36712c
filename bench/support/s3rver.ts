// s3rver (tests/support/s3.ts) in a process of its own for bench/load.ts, so that storing hundreds
// of photos does not share the load generator's event loop. Prints `ready {json}`; SIGTERM stops it.
// `--no-upload-part-copy`: as a storage without UploadPartCopy (bench/video-location.ts).
import { startS3 } from '../../tests/support/s3'

const s3 = await startS3(undefined, { uploadPartCopy: !process.argv.includes('--no-upload-part-copy') })
console.log(`ready ${JSON.stringify({ port: s3.port, directory: s3.directory, endpoint: s3.endpoint, env: s3.env })}`)
process.on('SIGTERM', () => {
  void s3.stop().finally(() => process.exit(0))
})
