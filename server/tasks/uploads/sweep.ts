export default defineTask({
  meta: { name: 'uploads:sweep', description: 'Remove abandoned uploads, retry failed deletions, finish derivations' },
  async run() {
    await dbReady()
    return { result: await sweep() }
  },
})
