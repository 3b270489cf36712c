import type { H3Event } from 'h3'

// A named type: mlly's export scanner (Nitro auto-imports) misses functions whose signature holds
// a string-literal union.
type ReactionStep = 'heart' | 'comment' | 'comment-undo'

/**
 * Hearts and comments are limited per client by the uploads' rule, each on a counter of its own:
 * a guest hearting photo after photo is never slowed in sending theirs, nor the reverse. The token
 * is taken before the work, so a parallel burst gets exactly the limit.
 */
export async function limitReactions(event: H3Event, step: ReactionStep) {
  await consumeToken(event, `reactions-${step}`, clientKey(event), uploadRule())
}
