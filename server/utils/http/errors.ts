import type { H3Event } from 'h3'
import type { z } from 'zod'
import { ErrorCode } from '#shared/errors'
import { createError, getValidatedQuery, getValidatedRouterParams, readValidatedBody } from 'h3'

/** An h3 error carrying the contract's machine code in `data.code`. */
export function apiError(status: number, code: ErrorCode, statusMessage: string, extra: Record<string, unknown> = {}) {
  return createError({ status, statusMessage, data: { code, ...extra } })
}

export const notFound = () => apiError(404, ErrorCode.NOT_FOUND, 'Not found')

export interface RequestIssue { path: string[], code: string, message: string }

/** 400 INVALID_REQUEST with the issues found, in the validator's shape (for rules a schema cannot see alone). */
export function invalidRequest(issues: RequestIssue[]) {
  return apiError(400, ErrorCode.INVALID_REQUEST, 'Invalid request', { issues })
}

function invalid(error: z.ZodError) {
  return invalidRequest(error.issues.map(issue => ({ path: issue.path.map(String), code: issue.code, message: issue.message })))
}

type SafeParse<T extends z.ZodType> = ReturnType<T['safeParse']>

function unwrap<T extends z.ZodType>(result: SafeParse<T>): z.output<T> {
  if (!result.success) throw invalid(result.error as z.ZodError)
  return result.data as z.output<T>
}

/** The JSON body, validated; any mismatch is 400 INVALID_REQUEST with the validator's issues. */
export async function readBodyAs<T extends z.ZodType>(event: H3Event, schema: T): Promise<z.output<T>> {
  return unwrap<T>(await readValidatedBody(event, body => schema.safeParse(body) as SafeParse<T>))
}

export async function readQueryAs<T extends z.ZodType>(event: H3Event, schema: T): Promise<z.output<T>> {
  return unwrap<T>(await getValidatedQuery(event, query => schema.safeParse(query) as SafeParse<T>))
}

/** Route params; a malformed id can never exist, so it answers 404 like an unknown one. */
export async function readParamsAs<T extends z.ZodType>(event: H3Event, schema: T): Promise<z.output<T>> {
  const result = await getValidatedRouterParams(event, params => schema.safeParse(params) as SafeParse<T>, { decode: true })
  if (!result.success) throw notFound()
  return result.data as z.output<T>
}
