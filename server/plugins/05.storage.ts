import redisDriver from 'unstorage/drivers/redis'

/**
 * Rate-limit counters live in Nitro storage: memory on a single server, Redis when REDIS_URL is set
 * so that every instance behind a load balancer counts the same client together.
 */
export default defineNitroPlugin(() => {
  const { REDIS_URL } = useConfig()
  if (!REDIS_URL) return
  useStorage().mount('ratelimit', redisDriver({ url: REDIS_URL, base: 'event-media:ratelimit' }))
})
