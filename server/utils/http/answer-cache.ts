import type { H3Event } from 'h3'
import { EncodedJson } from './compression'
import { requestOrigin } from './request-origin'

/**
 * Encoded answers kept per key, each valid for one tag (see dataTag): the answer is made (and
 * compressed on demand) once per change of the data it shows, since until then it is the same for
 * everyone who may see it. The caller read the tag from the database for this request, so an
 * answer made before the latest change is never served: a change elsewhere, even on another
 * instance, moves the tag, and the next request makes the answer again. Concurrent requests for an
 * answer being made wait for the same query. Least recently used answers go first.
 */
export class AnswerCache {
  private readonly answers = new Map<string, { tag: string, answer: Promise<EncodedJson> }>()

  constructor(private readonly maxAnswers: number) {}

  get(key: string, tag: string, make: () => Promise<unknown>): Promise<EncodedJson> {
    const kept = this.answers.get(key)
    if (kept?.tag === tag) {
      // Most recently used last: the answers everyone polls outlive one looked at once.
      this.answers.delete(key)
      this.answers.set(key, kept)
      return kept.answer
    }
    const answer = make().then(value => new EncodedJson(value))
    // A failed query is not kept: the next request tries again.
    answer.catch(() => {
      if (this.answers.get(key)?.answer === answer) this.answers.delete(key)
    })
    this.answers.delete(key)
    if (this.answers.size >= this.maxAnswers) this.answers.delete(this.answers.keys().next().value!)
    this.answers.set(key, { tag, answer })
    return answer
  }
}

/**
 * What an answer's media URLs depend on besides the data: the local driver's URLs name the origin
 * the request came to, so answers are kept per origin.
 */
export function answerOrigin(event: H3Event): string {
  try {
    return requestOrigin(event)
  }
  catch {
    // A Host header that makes no URL: the answer's own URLs refuse it where they depend on it.
    return ''
  }
}
