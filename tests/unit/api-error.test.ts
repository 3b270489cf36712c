import { describe, expect, it } from 'vitest'
import { adminPtBR } from '../../shared/messages/admin.pt-BR'
import { ApiError, apiErrorOf, toApiError } from '../../app-utils/api-error'

describe('ApiError', () => {
  it('reads status, data.code, data and retry-after from what $fetch throws', () => {
    const thrown = {
      statusCode: 429,
      data: { statusCode: 429, data: { code: 'RATE_LIMITED', retryAfter: 30 } },
      response: { status: 429, headers: new Headers({ 'retry-after': '12' }) },
    }
    const error = toApiError(thrown)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 12, data: { code: 'RATE_LIMITED', retryAfter: 30 } })
    expect(error.transient).toBe(true)
    expect(toApiError(error)).toBe(error)
  })

  it('takes data.retryAfter when no header says how long to wait', () => {
    const thrown = { data: { data: { code: 'RATE_LIMITED', retryAfter: 30 } }, response: { status: 429, headers: new Headers() } }
    expect(toApiError(thrown).retryAfter).toBe(30)
  })

  it('is "no answer" (status null, transient) when the request never reached the server', () => {
    const error = toApiError(new TypeError('fetch failed'))
    expect(error).toMatchObject({ status: null, code: null, retryAfter: null })
    expect(error.transient).toBe(true)
    expect(error.unauthenticated).toBe(false)
  })

  it('parses a body given as text: JSON, S3 XML, or a proxy page', () => {
    expect(apiErrorOf(409, '{"statusCode":409,"data":{"code":"OBJECT_MISSING","missingParts":[2]}}')).toMatchObject({ status: 409, code: 'OBJECT_MISSING', data: { missingParts: [2] } })
    expect(apiErrorOf(403, '<Error><Code>AccessDenied</Code></Error>').code).toBe('AccessDenied')
    const proxy = apiErrorOf(502, '<html>Bad gateway</html>', '')
    expect(proxy).toMatchObject({ status: 502, code: null, retryAfter: null })
    expect(proxy.transient).toBe(true)
    expect(apiErrorOf(404, '').transient).toBe(false)
    expect(apiErrorOf(401, null).unauthenticated).toBe(true)
  })
})

describe('admin failure words', () => {
  const { errors } = adminPtBR
  it('names a lost connection, a known code, or says something went wrong', () => {
    expect(errors.describe(new ApiError(null, null))).toBe(errors.network)
    expect(errors.describe(new ApiError(404, 'NOT_FOUND'))).toBe(errors.byCode.NOT_FOUND)
    expect(errors.describe(new ApiError(500, 'SOMETHING_ELSE'))).toBe(errors.generic)
  })
})
